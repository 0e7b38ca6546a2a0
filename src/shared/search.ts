/**
 * Search (issue 21, docs/decisions/0018-search.md): what can be found, the limits and the texts
 * both sides use. The server searches PostgreSQL's full-text index (src/server/features/search);
 * the client asks after SEARCH_LIMITS.debounceMs of idle typing and cancels earlier requests.
 */

/** What a result can be, in the order the groups are shown. */
export const SEARCH_KINDS = ["post", "comment", "lesson", "course", "member"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_KIND_LABELS: Record<SearchKind, { one: string; many: string }> = {
  post: { one: "Post", many: "Posts" },
  comment: { one: "Comment", many: "Comments" },
  lesson: { one: "Lesson", many: "Lessons" },
  course: { one: "Course", many: "Courses" },
  member: { one: "Member", many: "Members" },
};

/** Relevance (recency breaks ties) or newest first. */
export const SEARCH_ORDERS = ["relevance", "newest"] as const;
export type SearchOrder = (typeof SEARCH_ORDERS)[number];

export const SEARCH_ORDER_LABELS: Record<SearchOrder, string> = { relevance: "Most relevant", newest: "Newest" };

/** The languages a profile can choose (SPEC): stemming for the European ones, n-grams for ja and zh. */
export const SEARCH_LANGUAGES = ["en", "pt", "es", "fr", "de", "it", "ja", "zh"] as const;

export const SEARCH_LIMITS = {
  /** Characters of a query that are searched; a longer one is cut (never refused). */
  queryMax: 200,
  /** What the API accepts at all in ?q= (beyond it: 400 with SEARCH_MESSAGES.queryTooLong). */
  queryAcceptMax: 1000,
  /** Results on one page of one kind. */
  page: 20,
  maxPage: 50,
  /**
   * Results of each kind on the grouped first page (no kind chosen): an overview that keeps every
   * kind in view; a group's "Load more" goes on from its cursor a page at a time.
   */
  groupPage: 5,
  /** Characters of a snippet around its first match. */
  snippet: 160,
  /** Idle time before the client searches while typing. */
  debounceMs: 250,
  /** Group counts are exact up to this; above it the client shows "100+". */
  countCap: 100,
} as const;

export const SEARCH_MESSAGES = {
  placeholder: "Search this community",
  headerPlaceholder: "Search Hearth",
  noResults: "No results",
  noResultsHint: "Try different words, or fewer filters.",
  queryTooLong: `Search is limited to ${SEARCH_LIMITS.queryAcceptMax} characters`,
  locked: "Locked",
  badCursor: "Invalid page cursor",
  resultsFor: (q: string) => `Results for “${q}”`,
  searching: "Searching",
  failed: "Search failed. Try again.",
  loadMoreFailed: "Could not load more results. Try again.",
  clear: "Clear search",
  headerTitle: "Search Hearth",
} as const;

/*
 * Where a result opens, built by the server for each result and usable by the web: a post on its
 * page, a comment on its post's page at the comment (the element id the thread gives it), a course
 * or a lesson on the course page, a member on their profile.
 */
export const searchPostHref = (postId: string) => `/post/${encodeURIComponent(postId)}`;
/** The element id of a comment in its thread (the comments feature's anchor). */
export const commentAnchor = (commentId: string) => `comment-${commentId}`;
export const searchCommentHref = (postId: string, commentId: string) =>
  `${searchPostHref(postId)}#${commentAnchor(commentId)}`;
export const searchCourseHref = (communitySlug: string, courseId: string, lessonId?: string) =>
  `/community/${encodeURIComponent(communitySlug)}/course/${encodeURIComponent(courseId)}${
    lessonId ? `?lesson=${encodeURIComponent(lessonId)}` : ""
  }`;
export const searchMemberHref = (username: string) => `/u/${encodeURIComponent(username)}`;
