/**
 * The expected authorization table: for every API operation, what each actor gets, in a public and
 * in a private community. Written out by hand from SPEC §6 (roles and permissions), §4 (membership,
 * courses), §8 (error texts) and the documented decisions (docs/decisions/0004-communities.md,
 * docs/authorization.md). Nothing here is computed from the product's own permission code: when the
 * two disagree, one of them is wrong and the matrix says which cell.
 *
 * Columns, in this order (see fixtures.ts for who they are):
 *
 *   anon    not signed in
 *   nonmem  signed in, never a member
 *   other   owner of another community, never a member of this one
 *   left    was a member, left (their post, comment, saves and notification stay)
 *   banned  was a member, removed and banned
 *   guest, member, mod(erator), admin, owner   members with that role
 *
 * Tokens:
 *   200 201 204  allowed (a label after ":" names what the answer must show, see cases.ts)
 *   401          sign-in required
 *   403          refused: 'Insufficient permissions' (or the label's message in `messages`)
 *   gate         403 PRIVATE_COMMUNITY with the spec's text only (the private community page, SPEC §2)
 *   ban          403 'You can no longer join this community.'
 *   404          not found, answered exactly as for an id that does not exist
 *   400 409      refused for the reason in `messages`
 *
 * A route in the OpenAPI document that is missing here fails the matrix, and so does an entry here
 * whose route is gone. Entries named "METHOD /path · case" are further cases of the same operation.
 * Entries marked `hidden` are routes left out of the OpenAPI document (auth, dev, media).
 */

export const ACTOR_COLUMNS = "anon nonmem other left banned guest member mod admin owner";

export type Entry = {
  /** The rule in words, and where it comes from. */
  rule: string;
  /** Operations on a community (or its posts, courses…): one row per visibility. */
  public?: string;
  private?: string;
  /** Operations with no community: one row. */
  any?: string;
  /** Messages by token (defaults in DEFAULT_MESSAGES). */
  messages?: Record<string, string>;
  /** Not in the OpenAPI document (checked against the app's routes instead). */
  hidden?: true;
};

const EVENTS_FORBIDDEN = "Only the community's owner and admins can manage events";
const MEMBERS_HIDDEN = "You don't have access to view members of this community.";
const NOT_A_MEMBER = "User is not a member of this community";
const CANNOT_MESSAGE = "You can't message this person.";

export const DEFAULT_MESSAGES: Record<string, string> = {
  "401": "Please sign in to continue",
  "403": "Insufficient permissions",
  gate: "This community is private. You need an invitation to join.",
  ban: "You can no longer join this community.",
};

//                        anon nonmem other left banned guest member mod  admin owner
const ALL_200 = /*     */ "200  200    200   200  200    200   200    200  200   200";
const SIGNED_IN_200 = /**/ "401  200    200   200  200    200   200    200  200   200";

/** Owner and admin only (SPEC §6: invite_members, remove_members, change_roles, edit_community, manage_settings, ban_users, view_analytics). */
const managers = (ok: string) => ({
  public: `401  403    403   403  403    403   403    403  ${ok}   ${ok}`,
  private: `401  404    404   404  404    403   403    403  ${ok}   ${ok}`,
});

/** The owner only (view_revenue: money is the owner's, admins manage settings but not payments). */
const ownerOnly = (ok: string) => ({
  public: `401  403    403   403  403    403   403    403  403   ${ok}`,
  private: `401  404    404   404  404    403   403    403  403   ${ok}`,
});

/** Readable by whoever may see the community: everyone for a public one, members for a private one. */
const readable = (ok = "200") => ({
  public: `${ok}  ${ok}    ${ok}   ${ok}  ${ok}    ${ok}   ${ok}    ${ok}  ${ok}   ${ok}`,
  private: `404  404    404   404  404    ${ok}   ${ok}    ${ok}  ${ok}   ${ok}`,
});

export const EXPECTED: Record<string, Entry> = {
  // ------------------------------------------------------------------------------------------
  // Health and configuration: public to everyone.
  "GET /api/health": { rule: "Liveness: anyone", any: ALL_200 },
  "GET /api/ready": { rule: "Readiness: anyone (load balancers)", any: ALL_200 },
  "GET /api/config": { rule: "Public client configuration: anyone", any: ALL_200 },

  // ------------------------------------------------------------------------------------------
  // The signed-in user's own account: only ever their own.
  "GET /api/me": {
    rule: "Anyone; signed out answers nulls, signed in answers only the caller's own account",
    any: "200:none 200:self 200:self 200:self 200:self 200:self 200:self 200:self 200:self 200:self",
  },
  "PATCH /api/me/profile": { rule: "Signed in; changes only the caller's own profile", any: SIGNED_IN_200 },
  "GET /api/profiles/username-available": { rule: "Anyone (the sign-up form)", any: ALL_200 },
  "GET /api/profiles/{username}": {
    rule: "Anyone sees a public profile; the email only when the user made it public",
    any: ALL_200,
  },
  "POST /api/me/avatar": { rule: "Signed in; the caller's own avatar", any: SIGNED_IN_200 },
  "DELETE /api/me/avatar": {
    rule: "Signed in; the caller's own avatar",
    any: "401  204    204   204  204    204   204    204  204   204",
  },
  "GET /api/me/notification-settings": {
    rule: "Signed in; lists only communities the caller belongs to now (a left or banned member no longer sees it)",
    //         anon nonmem     other      left       banned     guest      member     mod        admin      owner
    public: " 401  200:absent 200:absent 200:absent 200:absent 200:listed 200:listed 200:listed 200:listed 200:listed",
    private: "401  200:absent 200:absent 200:absent 200:absent 200:listed 200:listed 200:listed 200:listed 200:listed",
  },
  "PATCH /api/me/notification-settings": {
    rule: "Signed in; per-community switches only for communities the caller belongs to",
    public: "401  400    400   400  400    200   200    200  200   200",
    private: "401  400    400   400  400    200   200    200  200   200",
    messages: { "400": NOT_A_MEMBER },
  },
  "GET /api/me/communities": {
    rule: "Signed in; lists only communities the caller belongs to now, private ones included (a left, removed or banned member no longer sees it)",
    //         anon nonmem     other      left       banned     guest      member     mod        admin      owner
    public: " 401  200:absent 200:absent 200:absent 200:absent 200:listed 200:listed 200:listed 200:listed 200:listed",
    private: "401  200:absent 200:absent 200:absent 200:absent 200:listed 200:listed 200:listed 200:listed 200:listed",
  },
  "GET /api/me/factors": { rule: "Signed in; the caller's own second factors", any: SIGNED_IN_200 },
  "PUT /api/me/factors/totp": { rule: "Signed in; the caller's own second factor", any: SIGNED_IN_200 },

  // ------------------------------------------------------------------------------------------
  // Communities (SPEC §6; private communities are blocked for non-members).
  "GET /api/communities": {
    rule: "The directory: anyone; lists public communities only (a private one is never listed, not even for its members)",
    public:
      "200:listed 200:listed 200:listed 200:listed 200:listed 200:listed 200:listed 200:listed 200:listed 200:listed",
    private:
      "200:absent 200:absent 200:absent 200:absent 200:absent 200:absent 200:absent 200:absent 200:absent 200:absent",
  },
  "POST /api/communities": {
    rule: "Any signed-in user creates a community and becomes its owner (SPEC §6)",
    any: "401  201    201   201  201    201   201    201  201   201",
    messages: { "401": "Please sign in to create a community" },
  },
  "GET /api/communities/{communityId}": {
    rule: "Public: anyone. Private: members; everyone else gets the private community page (SPEC §2) and nothing of it. The invite code only for those who may invite (owner, admin)",
    public: "200  200    200   200  200    200   200    200  200:invite 200:invite",
    private: "gate gate   gate  gate gate   200   200    200  200:invite 200:invite",
  },
  "PATCH /api/communities/{communityId}": {
    rule: "edit_community / manage_settings: owner, admin",
    ...managers("200"),
  },
  "DELETE /api/communities/{communityId}": {
    rule: "delete_community: owner only",
    public: "401  403    403   403  403    403   403    403  403   204",
    private: "401  404    404   404  404    403   403    403  403   204",
  },
  "POST /api/communities/{communityId}/invite/regenerate": { rule: "invite_members: owner, admin", ...managers("200") },
  "GET /api/communities/{communityId}/categories": { rule: "Whoever sees the community", ...readable() },
  "PUT /api/communities/{communityId}/categories": { rule: "manage_settings: owner, admin", ...managers("200") },
  "POST /api/communities/{communityId}/icon": { rule: "edit_community: owner, admin", ...managers("200") },
  "POST /api/communities/{communityId}/cover": { rule: "edit_community: owner, admin", ...managers("200") },
  "GET /api/communities/{communityId}/stats": { rule: "view_analytics: owner, admin", ...managers("200") },

  // ------------------------------------------------------------------------------------------
  // Membership (SPEC §4, §6, §8).
  "POST /api/communities/{communityId}/join": {
    rule: "Signed in. Public: anyone joins (a banned user cannot); members stay as they are. Private: only through an invite",
    public: "401  200:joined 200:joined 200:joined ban 200 200 200 200 200",
    private: "401  gate       gate       gate       gate 200 200 200 200 200",
  },
  "POST /api/communities/{communityId}/leave": {
    rule: "Members leave; the only owner cannot (SPEC §8); a non-member is told they are not one",
    public: "401  400    400   400  400    200   200    200  200   409",
    private: "401  404    404   404  404    200   200    200  200   409",
    messages: {
      "400": NOT_A_MEMBER,
      "409": "Cannot leave community: You are the only owner. Please transfer ownership before leaving.",
    },
  },
  "GET /api/communities/{communityId}/members": {
    rule: "Only members see the member list (SPEC §6)",
    public: "403  403    403   403  403    200   200    200  200   200",
    private: "404  404    404   404  404    200   200    200  200   200",
    messages: { "403": MEMBERS_HIDDEN },
  },
  "PATCH /api/communities/{communityId}/members/{userId}": {
    rule: "change_roles: owner, admin, on a member ranked below them",
    ...managers("200"),
  },
  "PATCH /api/communities/{communityId}/members/{userId} · the owner's role": {
    rule: "Nobody changes the owner: not an admin (ranked below), not the owner (never oneself) (SPEC §6, checklist A5)",
    public: "401  403    403   403  403    403   403    403  403:rank 403:self",
    private: "401  404    404   404  404    403   403    403  403:rank 403:self",
    messages: {
      "403:rank": "You can only change the role of members ranked below you",
      "403:self": "You cannot change your own role",
    },
  },
  "PATCH /api/communities/{communityId}/members/{userId} · to owner": {
    rule: "Only owners can assign the owner role (SPEC §8)",
    public: "401  403    403   403  403    403   403    403  403:owner 200",
    private: "401  404    404   404  404    403   403    403  403:owner 200",
    messages: { "403:owner": "Only owners can assign owner role" },
  },
  "PATCH /api/communities/{communityId}/members/{userId} · another admin": {
    rule: "An admin cannot change another admin (same rank); the owner can (checklist A5)",
    public: "401  403    403   403  403    403   403    403  403:rank 200",
    private: "401  404    404   404  404    403   403    403  403:rank 200",
    messages: { "403:rank": "You can only change the role of members ranked below you" },
  },
  "DELETE /api/communities/{communityId}/members/{userId}": {
    rule: "remove_members: owner, admin, on a member ranked below them",
    ...managers("204"),
  },
  "DELETE /api/communities/{communityId}/members/{userId} · another admin": {
    rule: "An admin cannot remove another admin; the owner can (checklist A5)",
    public: "401  403    403   403  403    403   403    403  403   204",
    private: "401  404    404   404  404    403   403    403  403   204",
  },
  "GET /api/communities/{communityId}/bans": { rule: "ban_users: owner, admin", ...managers("200") },
  "POST /api/communities/{communityId}/bans": { rule: "ban_users: owner, admin", ...managers("204") },
  "POST /api/communities/{communityId}/bans · the owner": {
    rule: "Nobody bans the owner (checklist A5)",
    public: "401  403    403   403  403    403   403    403  403   403",
    private: "401  404    404   404  404    403   403    403  403   403",
  },
  "DELETE /api/communities/{communityId}/bans/{userId}": { rule: "ban_users: owner, admin", ...managers("204") },

  // ------------------------------------------------------------------------------------------
  // Join requests (issue 20, docs/decisions/0016-levels-and-requests.md).
  "GET /api/communities/{communityId}/membership": { rule: "manage_settings: owner, admin", ...managers("200") },
  "PATCH /api/communities/{communityId}/membership": { rule: "manage_settings: owner, admin", ...managers("200") },
  "GET /api/communities/{communityId}/join-requests/mine": {
    rule: "The request form: whoever sees the community; a private one that takes no requests is missing to outsiders",
    ...readable(),
  },
  "POST /api/communities/{communityId}/join-requests": {
    rule: "Signed in, not a member, not banned; a private community taking requests takes them from outsiders too",
    public: "401  201    201   201  ban    409   409    409  409   409",
    private: "401  201    201   201  ban    409   409    409  409   409",
    messages: { "409": "You're already a member" },
  },
  "DELETE /api/communities/{communityId}/join-requests/mine": {
    rule: "Applicants withdraw their own pending request; members have none",
    public: "401  204    204   204  204    400   400    400  400   400",
    private: "401  204    204   204  204    400   400    400  400   400",
    messages: { "400": "Request not found" },
  },
  "GET /api/communities/{communityId}/join-requests": { rule: "invite_members: owner, admin", ...managers("200") },
  "POST /api/communities/{communityId}/join-requests/decide": {
    rule: "invite_members: owner, admin",
    ...managers("200"),
  },

  // ------------------------------------------------------------------------------------------
  // Invites: the code is the capability (docs/decisions/0004).
  "GET /api/invites/{inviteCode}": {
    rule: "Whoever holds the code sees the invite view, private communities included",
    public: ALL_200,
    private: ALL_200,
  },
  "POST /api/invites/{inviteCode}/accept": {
    rule: "Signed in; joins as a member (private ones too); not a banned user; members are told they already are (SPEC §8)",
    public: "401  200    200   200  ban    409   409    409  409   409",
    private: "401  200    200   200  ban    409   409    409  409   409",
    messages: { "409": "You are already a member of this community" },
  },

  // ------------------------------------------------------------------------------------------
  // Posts (SPEC §6 create_post, edit_own_post, delete_own_post, delete_any_post, moderate_posts;
  // post visibility public, members only, admins only; taking part in a public community joins it).
  "GET /api/communities/{communityId}/posts": {
    rule: "The feed: whoever sees the community; members-only posts to members, admins-only posts to owner and admin; pending posts to nobody here",
    public:
      "200:public 200:public 200:public 200:public 200:public 200:members 200:members 200:members 200:all 200:all",
    private:
      "404        404        404        404        404        200:members 200:members 200:members 200:all 200:all",
  },
  "POST /api/communities/{communityId}/posts": {
    rule: "create_post: owner, admin, moderator, member (not guest); a signed-in non-member of a public community joins by posting (decision 0004), a banned one cannot",
    public: "401  201    201   201  ban    403   201    201  201   201",
    private: "401  404    404   404  404    403   201    201  201   201",
  },
  "GET /api/communities/{communityId}/posts/pending": {
    rule: "moderate_posts: owner, admin, moderator",
    public: "401  403    403   403  403    403   403    200  200   200",
    private: "401  404    404   404  404    403   403    200  200   200",
  },
  "POST /api/communities/{communityId}/media": {
    rule: "Post images: members who may post there (create_post)",
    public: "401  403    403   403  403    403   200    200  200   200",
    private: "401  404    404   404  404    403   200    200  200   200",
  },
  "GET /api/posts/{postId}": { rule: "A public post: whoever sees the community", ...readable() },
  "GET /api/posts/{postId} · members only": {
    rule: "A members-only post: members",
    public: "404  404    404   404  404    200   200    200  200   200",
    private: "404  404    404   404  404    200   200    200  200   200",
  },
  "GET /api/posts/{postId} · admins only": {
    rule: "An admins-only post: owner, admin",
    public: "404  404    404   404  404    404   404    404  200   200",
    private: "404  404    404   404  404    404   404    404  200   200",
  },
  "GET /api/posts/{postId} · pending": {
    rule: "Someone else's post waiting for approval: those who moderate (owner, admin, moderator)",
    public: "404  404    404   404  404    404   404    200  200   200",
    private: "404  404    404   404  404    404   404    200  200   200",
  },
  "PATCH /api/posts/{postId}": {
    rule: "edit_own_post: the author, while owner, admin, moderator or member (a guest, a left or a banned author cannot). Actors who never wrote try the author's post",
    public: "401  403    403   403  403    403   200    200  200   200",
    private: "401  404    404   404  404    403   200    200  200   200",
  },
  "PATCH /api/posts/{postId} · someone else's": {
    rule: "Nobody edits another member's post",
    public: "401  403    403   403  403    403   403    403  403   403",
    private: "401  404    404   404  404    403   403    403  403   403",
  },
  "DELETE /api/posts/{postId}": {
    rule: "delete_own_post: the author, while owner, admin, moderator or member. Actors who never wrote try the author's post (moderator and up may: delete_any_post)",
    public: "401  403    403   403  403    403   204    204  204   204",
    private: "401  404    404   404  404    403   204    204  204   204",
  },
  "DELETE /api/posts/{postId} · someone else's": {
    rule: "delete_any_post: owner, admin, moderator",
    public: "401  403    403   403  403    403   403    204  204   204",
    private: "401  404    404   404  404    403   403    204  204   204",
  },
  "POST /api/posts/{postId}/like": {
    rule: "Signed in and sees the post; liking joins a public community (decision 0004), so a banned user cannot",
    public: "401  200    200   200  ban    200   200    200  200   200",
    private: "401  404    404   404  404    200   200    200  200   200",
  },
  "POST /api/posts/{postId}/save": {
    rule: "Signed in and sees the post (saves are private to the user and join nothing)",
    public: "401  200    200   200  200    200   200    200  200   200",
    private: "401  404    404   404  404    200   200    200  200   200",
  },
  "POST /api/posts/{postId}/share": { rule: "Counts a share: whoever sees the post", ...readable() },
  "POST /api/posts/{postId}/vote": {
    rule: "Signed in and sees the poll; voting joins a public community, so a banned user cannot",
    public: "401  200    200   200  ban    200   200    200  200   200",
    private: "401  404    404   404  404    200   200    200  200   200",
  },
  "POST /api/posts/{postId}/pin": {
    rule: "moderate_posts: owner, admin, moderator",
    public: "401  403    403   403  403    403   403    200  200   200",
    private: "401  404    404   404  404    403   403    200  200   200",
  },
  "POST /api/posts/{postId}/review": {
    rule: "moderate_posts; a pending post is invisible to everyone else",
    public: "401  404    404   404  404    404   404    200  200   200",
    private: "401  404    404   404  404    404   404    200  200   200",
  },
  "POST /api/posts/{postId}/warn": {
    rule: "moderate_posts: owner, admin, moderator (Warn User, SPEC §6)",
    public: "401  403    403   403  403    403   403    200  200   200",
    private: "401  404    404   404  404    403   403    200  200   200",
  },
  // Reports (issue 22, docs/decisions/0020-reports.md; the matrix in docs/authorization.md).
  "POST /api/reports": {
    rule: "Members who may read the item (the world's public post, by someone else); outsiders of a private community get 404, readers who are not members are asked to join",
    public: "401  403    403   403  403    201   201    201  201   201",
    private: "401  404    404   404  404    201   201    201  201   201",
    messages: { "403": "Join the community to report this" },
  },
  "GET /api/communities/{idOrSlug}/reports": {
    rule: "moderate_posts: owner, admin, moderator (reporters are shown to them only)",
    public: "401  403    403   403  403    403   403    200  200   200",
    private: "401  404    404   404  404    403   403    200  200   200",
  },
  "GET /api/communities/{idOrSlug}/reports/count": {
    rule: "moderate_posts: owner, admin, moderator",
    public: "401  403    403   403  403    403   403    200  200   200",
    private: "401  404    404   404  404    403   403    200  200   200",
  },
  "POST /api/communities/{idOrSlug}/reports/{caseId}/decide": {
    rule: "dismiss, remove, warn: moderate_posts (owner, admin, moderator)",
    public: "401  403    403   403  403    403   403    200  200   200",
    private: "401  404    404   404  404    403   403    200  200   200",
  },
  "POST /api/communities/{idOrSlug}/reports/{caseId}/decide · ban": {
    rule: "ban: ban_users (owner, admin), within the role hierarchy",
    public: "401  403    403   403  403    403   403    403  200   200",
    private: "401  404    404   404  404    403   403    403  200   200",
  },
  "GET /api/communities/{idOrSlug}/reports/settings": { rule: "manage_settings: owner, admin", ...managers("200") },
  "PUT /api/communities/{idOrSlug}/reports/settings": { rule: "manage_settings: owner, admin", ...managers("200") },
  "GET /api/me/saved": {
    rule: "Signed in; only saved posts the caller can still see (checklist A2): a public post while the community is public; a members-only post only as a member",
    public: "401  200:public 200:public 200:public 200:public 200:both 200:both 200:both 200:both 200:both",
    private: "401  200:none   200:none   200:none   200:none   200:both 200:both 200:both 200:both 200:both",
  },

  // ------------------------------------------------------------------------------------------
  // Comments: writing a comment is taking part (create_post); editing and deleting one's own
  // follow edit_own_post and delete_own_post like posts; moderators delete any (delete_any_post).
  "GET /api/posts/{postId}/comments": { rule: "Whoever sees the post", ...readable() },
  "POST /api/posts/{postId}/comments": {
    rule: "create_post (not guest); commenting joins a public community, so a banned user cannot",
    public: "401  201    201   201  ban    403   201    201  201   201",
    private: "401  404    404   404  404    403   201    201  201   201",
  },
  "PATCH /api/comments/{commentId}": {
    rule: "edit_own_post: the author while owner, admin, moderator or member (not a guest, left or banned author). Actors who never wrote try the author's comment",
    public: "401  403    403   403  403    403   200    200  200   200",
    private: "401  404    404   404  404    403   200    200  200   200",
  },
  "PATCH /api/comments/{commentId} · someone else's": {
    rule: "Nobody edits another member's comment",
    public: "401  403    403   403  403    403   403    403  403   403",
    private: "401  404    404   404  404    403   403    403  403   403",
  },
  "DELETE /api/comments/{commentId}": {
    rule: "delete_own_post: the author while owner, admin, moderator or member. Actors who never wrote try the author's comment (moderator and up may)",
    public: "401  403    403   403  403    403   204    204  204   204",
    private: "401  404    404   404  404    403   204    204  204   204",
  },
  "DELETE /api/comments/{commentId} · someone else's": {
    rule: "delete_any_post: owner, admin, moderator",
    public: "401  403    403   403  403    403   403    204  204   204",
    private: "401  404    404   404  404    403   403    204  204   204",
  },
  "POST /api/comments/{commentId}/like": {
    rule: "Signed in and sees the comment; liking joins a public community, so a banned user cannot",
    public: "401  200    200   200  ban    200   200    200  200   200",
    private: "401  404    404   404  404    200   200    200  200   200",
  },
  "GET /api/communities/{communityId}/leaderboard": { rule: "Whoever sees the community", ...readable() },
  "GET /api/communities/{communityId}/levels": {
    rule: "Level settings: members read them; a private community is missing to outsiders",
    public: "401  403    403   403  403    200   200    200  200   200",
    private: "401  404    404   404  404    200   200    200  200   200",
  },
  "PUT /api/communities/{communityId}/levels": { rule: "manage_settings: owner, admin", ...managers("200") },
  // Search (issue 21, docs/decisions/0018-search.md): results are filtered per viewer, the route itself is open.
  "GET /api/communities/{communityId}/search": {
    rule: "Whoever sees the community (results: what they may read)",
    ...readable(),
  },
  "GET /api/search": { rule: "Anyone; results only from what the viewer may read", any: ALL_200 },

  // ------------------------------------------------------------------------------------------
  // Uploads (SPEC §7 own endpoints).
  "POST /api/upload": { rule: "Signed in; an image of one's own", any: SIGNED_IN_200 },
  "POST /api/upload · a post file of the community": {
    rule: "A community's post media: members who may post there (create_post)",
    public: "401  403    403   403  403    403   200    200  200   200",
    private: "401  404    404   404  404    403   200    200  200   200",
  },
  "POST /api/upload · a course file of the community": {
    rule: "A community's course media: owner, admin (who build courses)",
    ...managers("200"),
  },
  "GET /api/upload/health": { rule: "Which storage is in use: anyone", any: ALL_200 },
  "POST /api/upload/presigned-url": {
    rule: "A post file of the community: members who may post there (create_post)",
    public: "401  403    403   403  403    403   200    200  200   200",
    private: "401  404    404   404  404    403   200    200  200   200",
  },
  "POST /api/upload/presigned-url · a course file": { rule: "Course media: owner, admin", ...managers("200") },
  "POST /api/upload/complete": {
    rule: "Signed in; a reserved key is completed only by who reserved it (here: another member), for anyone else it is unknown",
    public: "401  400    400   400  400    400   400    400  400   400",
    private: "401  400    400   400  400    400   400    400  400   400",
    messages: { "400": "This upload link has expired. Please try again." },
  },

  // ------------------------------------------------------------------------------------------
  // The calendar (issue 19; event-access.ts): members of any role see the community's events (a
  // visitor or non-member of a public community gets an empty calendar, of a private one a missing
  // community); owner and admin (manage_events) create, edit and cancel them. The world's community
  // has an event for all members, tomorrow.
  "GET /api/communities/{communityId}/events": {
    rule: "Members see the calendar; others of a public community an empty one, of a private one a missing community",
    public: "200:none 200:none 200:none 200:none 200:none 200:listed 200:listed 200:listed 200:listed 200:listed",
    private: "404      404      404      404      404      200:listed 200:listed 200:listed 200:listed 200:listed",
  },
  "GET /api/communities/{communityId}/calendar": {
    rule: "The month grid: as the calendar's list (members see it; others of a public community an empty one, of a private one a missing community)",
    public: "200:none 200:none 200:none 200:none 200:none 200:listed 200:listed 200:listed 200:listed 200:listed",
    private: "404      404      404      404      404      200:listed 200:listed 200:listed 200:listed 200:listed",
  },
  "POST /api/communities/{communityId}/events": {
    rule: "manage_events: owner, admin create events",
    ...managers("201"),
    messages: { "403": EVENTS_FORBIDDEN },
  },
  "GET /api/events/{occurrenceId}": {
    rule: "An event: its community's members (any role); anyone else as a missing event",
    public: "404  404    404   404  404    200   200    200  200   200",
    private: "404  404    404   404  404    200   200    200  200   200",
  },
  "PATCH /api/events/{occurrenceId}": {
    rule: "manage_events: owner, admin edit; other members are refused; outsiders as a missing event",
    public: "401  404    404   404  404    403   403    403  200   200",
    private: "401  404    404   404  404    403   403    403  200   200",
    messages: { "403": EVENTS_FORBIDDEN },
  },
  "POST /api/events/{occurrenceId}/cancel": {
    rule: "manage_events: owner, admin cancel; other members are refused; outsiders as a missing event",
    public: "401  404    404   404  404    403   403    403  200   200",
    private: "401  404    404   404  404    403   403    403  200   200",
    messages: { "403": EVENTS_FORBIDDEN },
  },

  // ------------------------------------------------------------------------------------------
  // Courses (SPEC §4: drafts for owner and admin; §6: admin creates courses and lessons; paid
  // lessons locked without access unless a free preview).
  "GET /api/communities/{communityId}/courses": {
    rule: "Whoever sees the community; drafts only to owner and admin",
    public:
      "200:published 200:published 200:published 200:published 200:published 200:published 200:published 200:published 200:drafts 200:drafts",
    private:
      "404           404           404           404           404           200:published 200:published 200:published 200:drafts 200:drafts",
  },
  "POST /api/communities/{communityId}/courses": { rule: "Owner, admin create courses", ...managers("201") },
  "PUT /api/communities/{communityId}/courses/order": { rule: "Owner, admin", ...managers("200") },
  "GET /api/courses/{courseId}": {
    rule: "A published free course: whoever sees the community; its lessons play for members only",
    public: "200:locked 200:locked 200:locked 200:locked 200:locked 200:open 200:open 200:open 200:open 200:open",
    private: "404        404        404        404        404        200:open 200:open 200:open 200:open 200:open",
  },
  "GET /api/courses/{courseId} · paid": {
    rule: "A paid course: lessons locked without a purchase; owner and admin always have access",
    public: "200:locked 200:locked 200:locked 200:locked 200:locked 200:locked 200:locked 200:locked 200:open 200:open",
    private:
      "404        404        404        404        404        200:locked 200:locked 200:locked 200:open 200:open",
  },
  "GET /api/courses/{courseId} · draft": {
    rule: "A draft: owner, admin only (SPEC §4)",
    public: "404  404    404   404  404    404   404    404  200   200",
    private: "404  404    404   404  404    404   404    404  200   200",
  },
  "PATCH /api/courses/{courseId}": { rule: "Owner, admin", ...managers("200") },
  "DELETE /api/courses/{courseId}": { rule: "Owner, admin", ...managers("204") },
  "POST /api/courses/{courseId}/purchase": {
    rule: "A member buys a paid course (simulated); non-members are told to join first",
    public: "401  403:join 403:join 403:join 403:join 200 200 200 200 200",
    private: "401  404      404      404      404      200 200 200 200 200",
    messages: { "403:join": "Join the community to buy its courses" },
  },
  "POST /api/courses/{courseId}/modules": { rule: "Owner, admin", ...managers("201") },
  "PUT /api/courses/{courseId}/modules/order": { rule: "Owner, admin", ...managers("200") },
  "PATCH /api/modules/{moduleId}": { rule: "Owner, admin", ...managers("200") },
  "DELETE /api/modules/{moduleId}": { rule: "Owner, admin", ...managers("200") },
  "POST /api/modules/{moduleId}/lessons": { rule: "Owner, admin add lessons", ...managers("201") },
  "PUT /api/modules/{moduleId}/lessons/order": { rule: "Owner, admin", ...managers("200") },
  "PATCH /api/lessons/{lessonId}": { rule: "Owner, admin", ...managers("200") },
  "DELETE /api/lessons/{lessonId}": { rule: "Owner, admin", ...managers("200") },
  "POST /api/lessons/{lessonId}/complete": {
    rule: "A lesson of a free course: members complete it; non-members are told to join",
    public: "401  403:join 403:join 403:join 403:join 200 200 200 200 200",
    private: "401  404      404      404      404      200 200 200 200 200",
    messages: { "403:join": "Join the community to take its courses" },
  },
  "POST /api/lessons/{lessonId}/complete · paid": {
    rule: "A locked lesson of a paid course: only with access (owner, admin; others after buying)",
    public: "401  403:join 403:join 403:join 403:join 403:locked 403:locked 403:locked 200 200",
    private: "401  404      404      404      404      403:locked 403:locked 403:locked 200 200",
    messages: {
      "403:join": "Join the community to take its courses",
      "403:locked": "This lesson is part of a paid course. Purchase the course to watch it.",
    },
  },
  "POST /api/lessons/{lessonId}/complete · draft": {
    rule: "A draft's lesson: invisible but to owner and admin",
    public: "401  404    404   404  404    404   404    404  200   200",
    private: "401  404    404   404  404    404   404    404  200   200",
  },

  // ------------------------------------------------------------------------------------------
  // Notifications: only one's own, and only while one may still see the community and post
  // (checklist A2).
  "GET /api/notifications": {
    rule: "Signed in; one's own notifications, only those about what one may still see",
    public: "401  200:shown 200:shown 200:shown 200:shown 200:shown 200:shown 200:shown 200:shown 200:shown",
    private: "401  200:none  200:none  200:none  200:none  200:shown 200:shown 200:shown 200:shown 200:shown",
  },
  "GET /api/notifications/unread-count": { rule: "Signed in; one's own", any: SIGNED_IN_200 },
  "POST /api/notifications/read-all": {
    rule: "Signed in; marks only one's own",
    public: SIGNED_IN_200,
    private: SIGNED_IN_200,
  },
  "POST /api/notifications/{id}/read": {
    rule: "One's own notification, while one may see what it is about",
    public: "401  200    200   200  200    200   200    200  200   200",
    private: "401  404    404   404  404    200   200    200  200   200",
  },
  "POST /api/notifications/{id}/read · someone else's": {
    rule: "Someone else's notification does not exist for the caller",
    public: "401  404    404   404  404    404   404    404  404   404",
    private: "401  404    404   404  404    404   404    404  404   404",
  },
  "POST /api/notifications/unsubscribe": {
    rule: "No session: the token of the digest's link is the capability; a bad token changes nothing",
    any: "400  400    400   400  400    400   400    400  400   400",
    messages: { "400": "This unsubscribe link is not valid." },
  },
  "POST /api/notifications/unsubscribe · a valid token": {
    rule: "Whoever holds a valid token turns off that user's emails (one-click unsubscribe, RFC 8058)",
    any: ALL_200,
  },

  // ------------------------------------------------------------------------------------------
  // Billing (simulated trial): one's own plan.
  "POST /api/billing/trial": {
    rule: "Signed in; the caller's own trial and paid community",
    any: "401  201    201   201  201    201   201    201  201   201",
  },
  "GET /api/billing/plan": { rule: "Signed in; the caller's own plan", any: SIGNED_IN_200 },

  // ------------------------------------------------------------------------------------------
  // Payments (issue 18). In each world the community sells a "Standard" tier (monthly and yearly)
  // and `member` holds a subscription to it (cases.ts: sellTier); the test app runs the simulated
  // provider. Amounts come only from stored prices; one's checkouts and subscriptions are one's own.
  "POST /api/payments/webhook": {
    rule: "Stripe's webhook: with the simulated provider there is none, whoever posts (the signature, not the session, authenticates it)",
    any: "404  404    404   404  404    404   404    404  404   404",
  },
  "POST /api/billing/checkout": {
    rule: "Whoever may see the community and join it buys a paid tier; the banned are kept out; those who manage it or already hold it get 409",
    public: "401  201    201   201  ban    201   409    201  409   409",
    private: "401  404    404   404  404    201   409    201  409   409",
    messages: { "409": "You already have a membership here" },
  },
  "GET /api/billing/checkout/{id}": {
    rule: "One's own checkout only (member's here); anyone else's answers as missing",
    any: "401  404    404   404  404    404   200    404  404   404",
  },
  "POST /api/billing/checkout/{id}/simulated-payment": {
    rule: "Only the checkout's buyer submits its simulated card form",
    any: "401  404    404   404  404    404   202    404  404   404",
  },
  "GET /api/billing": { rule: "Signed in; one's own subscriptions, purchases and payments", any: SIGNED_IN_200 },
  "POST /api/billing/subscriptions/{id}/cancel": {
    rule: "Only the subscriber (member's here) cancels; anyone else's answers as missing",
    any: "401  404    404   404  404    404   204    404  404   404",
  },
  "POST /api/billing/subscriptions/{id}/resume": {
    rule: "Only the subscriber takes a cancellation back",
    any: "401  404    404   404  404    404   204    404  404   404",
  },
  "POST /api/billing/subscriptions/{id}/change": {
    rule: "Only the subscriber changes plan, to a price of the same community",
    any: "401  404    404   404  404    404   204    404  404   404",
  },
  "POST /api/billing/portal": {
    rule: "Signed in; the simulated provider has no customer portal",
    any: "401  404    404   404  404    404   404    404  404   404",
  },
  "GET /api/communities/{communityId}/tiers": { rule: "The tiers on sale: whoever sees the community", ...readable() },
  "GET /api/communities/{communityId}/pricing": { rule: "The Pricing tab: manage_settings", ...managers("200") },
  "PUT /api/communities/{communityId}/pricing": { rule: "The Pricing tab: manage_settings", ...managers("200") },
  "GET /api/communities/{communityId}/revenue": { rule: "Revenue: the owner only (view_revenue)", ...ownerOnly("200") },
  "GET /api/communities/{communityId}/payments.csv": { rule: "The payments CSV: the owner only", ...ownerOnly("200") },
  "GET /api/communities/{communityId}/payouts": { rule: "Payout settings: the owner only", ...ownerOnly("200") },
  "POST /api/communities/{communityId}/payouts/connect": {
    rule: "Connect onboarding: the owner only; without Connect mode there is nothing to connect (409)",
    ...ownerOnly("409"),
    messages: { "409": "Payments on this Hearth go to its own Stripe account: there is nothing to connect." },
  },
  "POST /api/communities/{communityId}/payouts/refresh": { rule: "Payout status: the owner only", ...ownerOnly("200") },

  // ------------------------------------------------------------------------------------------
  // Realtime streams.
  "GET /api/realtime/communities/{communityId}": { rule: "Whoever sees the community", ...readable() },
  "GET /api/realtime/notifications": { rule: "Signed in; one's own notifications", any: SIGNED_IN_200 },

  // ------------------------------------------------------------------------------------------
  // Calendar files and feeds (issue 19): the world's community has an event for all members.
  "GET /api/events/{occurrenceId}/ics": {
    rule: "An event's .ics: whoever sees the event (its community's members, any role); anyone else as a missing event",
    public: "401  404    404   404  404    200   200    200  200   200",
    private: "401  404    404   404  404    200   200    200  200   200",
  },
  // RSVPs (issue 19): whoever sees the event and may attend it (an event for all members: any role)
  // answers going or not going; the attendee list is for whoever sees the event.
  "PUT /api/events/{occurrenceId}/rsvp": {
    rule: "Going or not going: members who may attend (any role for an all-members event); anyone else as a missing event",
    public: "401  404    404   404  404    200   200    200  200   200",
    private: "401  404    404   404  404    200   200    200  200   200",
  },
  "GET /api/events/{occurrenceId}/attendees": {
    rule: "Who is going: whoever sees the event (its community's members, any role); anyone else as a missing event",
    public: "401  404    404   404  404    200   200    200  200   200",
    private: "401  404    404   404  404    200   200    200  200   200",
  },
  "GET /api/me/calendar-feed": { rule: "Signed in; one's own feed URL", any: SIGNED_IN_200 },
  "POST /api/me/calendar-feed": { rule: "Signed in; makes or renews one's own feed", any: SIGNED_IN_200 },
  "DELETE /api/me/calendar-feed": {
    rule: "Signed in; turns one's own feed off",
    any: "401  204    204   204  204    204   204    204  204   204",
  },

  // Direct messages (issue 22, docs/decisions/0019-messages-and-reports.md): a conversation is its
  // two people's only; no one else (the community's staff included) can tell it exists. The
  // conversation used is the actor's own with `target` (a member of every world's community), or
  // someone else's: between `author` and `target`.
  "GET /api/conversations": { rule: "Signed in; one's own conversations only", any: SIGNED_IN_200 },
  "POST /api/conversations": {
    rule: "Writing to a person needs a community shared now; the refusal never says why",
    any: "401  403    403   403  403    200   200    200  200   200",
    messages: { "403": CANNOT_MESSAGE },
  },
  "GET /api/conversations/{id}": {
    rule: "Someone else's conversation does not exist for the caller, whatever their role",
    any: "401  404    404   404  404    404   404    404  404   404",
  },
  "GET /api/conversations/{id} · own": { rule: "One's own conversation", any: SIGNED_IN_200 },
  "POST /api/conversations/{id}/messages": {
    rule: "Someone else's conversation does not exist for the caller",
    any: "401  404    404   404  404    404   404    404  404   404",
  },
  "POST /api/conversations/{id}/messages · own": {
    rule: "In one's own conversation, only while sharing a community; the refusal never says why",
    any: "401  403    403   403  403    201   201    201  201   201",
    messages: { "403": CANNOT_MESSAGE },
  },
  "POST /api/conversations/{id}/read": {
    rule: "Someone else's conversation does not exist for the caller",
    any: "401  404    404   404  404    404   404    404  404   404",
  },
  "POST /api/conversations/{id}/read · own": { rule: "One's own conversation", any: SIGNED_IN_200 },
  "PATCH /api/messages/{id}": {
    rule: "A message of someone else's conversation does not exist for the caller",
    any: "401  404    404   404  404    404   404    404  404   404",
  },
  "PATCH /api/messages/{id} · own": { rule: "One's own message, within the edit window", any: SIGNED_IN_200 },
  "DELETE /api/messages/{id}": {
    rule: "A message of someone else's conversation does not exist for the caller",
    any: "401  404    404   404  404    404   404    404  404   404",
  },
  "DELETE /api/messages/{id} · own": { rule: "One's own message", any: SIGNED_IN_200 },
  "GET /api/messages/unread-count": { rule: "Signed in; one's own", any: SIGNED_IN_200 },
  "GET /api/me/messaging": { rule: "Signed in; one's own choice", any: SIGNED_IN_200 },
  "PUT /api/me/messaging": { rule: "Signed in; changes only one's own choice", any: SIGNED_IN_200 },
  "GET /api/me/blocks": { rule: "Signed in; one's own blocks", any: SIGNED_IN_200 },
  "PUT /api/users/{userId}/block": { rule: "Signed in; one's own block of anyone", any: SIGNED_IN_200 },
  "DELETE /api/users/{userId}/block": { rule: "Signed in; lifts only one's own block", any: SIGNED_IN_200 },

  // ------------------------------------------------------------------------------------------
  // Routes left out of the OpenAPI document.
  "GET /api/auth/get-session": {
    rule: "Anyone; signed out answers null, signed in only the caller's own session",
    any: "200:none 200:self 200:self 200:self 200:self 200:self 200:self 200:self 200:self 200:self",
    hidden: true,
  },
  "GET /api/dev/mailbox": {
    rule: "The local outbox answers only requests made on this machine (loopback socket and Host, no forwarding header, DEV_MAILBOX on), whoever asks",
    any: "404  404    404   404  404    404   404    404  404   404",
    hidden: true,
  },
  "GET /dev/mailbox": {
    rule: "The local outbox page: as GET /api/dev/mailbox",
    any: "404  404    404   404  404    404   404    404  404   404",
    hidden: true,
  },
  "GET /api/admin/mailbox": {
    rule: "The operators' outbox: only a signed-in user whose confirmed email is in ADMIN_EMAILS (none of the actors); 404 for everyone else",
    any: "404  404    404   404  404    404   404    404  404   404",
    hidden: true,
  },
  "GET /admin/mailbox": {
    rule: "The operators' outbox page: as GET /api/admin/mailbox",
    any: "404  404    404   404  404    404   404    404  404   404",
    hidden: true,
  },
  "GET /media/{key}": {
    rule: "A public post's image: whoever sees the community (checklist U10)",
    ...readable(),
    hidden: true,
  },
  "GET /media/{key} · a members-only post's image": {
    rule: "Follows the post: members only",
    public: "404  404    404   404  404    200   200    200  200   200",
    private: "404  404    404   404  404    200   200    200  200   200",
    hidden: true,
  },
  "GET /api/openapi.json": { rule: "The API description: anyone", any: ALL_200, hidden: true },
  "GET /calendar/{file}": {
    rule: "A private calendar feed: the secret token in its URL is the credential, whoever fetches it (no session)",
    any: ALL_200,
    hidden: true,
  },
};

/** The operation ("METHOD /path") an entry is about. */
export const operationOf = (key: string) => key.split(" · ")[0];
