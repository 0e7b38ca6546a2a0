import { z } from "zod";
import { SEARCH_KINDS, SEARCH_LIMITS, SEARCH_MESSAGES, SEARCH_ORDERS } from "./search";

const isoDate = z.iso.date({ error: "Use a date like 2026-01-31" });

/**
 * GET /api/communities/:idOrSlug/search and GET /api/search (every community the viewer may read).
 * Absent or empty q answers an empty result (never an error); q over queryAcceptMax: 400.
 */
export const searchQuerySchema = z.object({
  q: z.string().max(SEARCH_LIMITS.queryAcceptMax, SEARCH_MESSAGES.queryTooLong).default(""),
  /** One kind (a page of it), or absent: the first page of every kind, grouped. */
  kind: z.enum(SEARCH_KINDS).optional(),
  category: z.uuid().optional(),
  /** Author's username (posts, comments). */
  author: z.string().max(30).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  order: z.enum(SEARCH_ORDERS).default("relevance"),
  /** Opaque keyset cursor from a previous page of the same kind. */
  cursor: z.string().max(500).optional(),
  /** Results per kind; absent: SEARCH_LIMITS.page for one kind, SEARCH_LIMITS.groupPage for the grouped first page. */
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMITS.maxPage).optional(),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** Text with the spans that matched, as [start, end) offsets in UTF-16 code units. The client marks them; no markup travels. */
export const highlightedDto = z.object({
  text: z.string(),
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type Highlighted = z.infer<typeof highlightedDto>;

export const searchResultDto = z.object({
  kind: z.enum(SEARCH_KINDS),
  /** The post, comment, lesson, course id, or the member's user id. */
  id: z.string(),
  community: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  /** Post title, lesson or course title, member's name. */
  title: highlightedDto,
  snippet: highlightedDto,
  /** Where the result opens: the post at the comment, the lesson, the profile. Built by the server from shared href helpers. */
  href: z.string(),
  author: z
    .object({ id: z.string(), username: z.string(), full_name: z.string(), avatar_url: z.string().nullable() })
    .nullable(),
  created_at: z.string().nullable(),
  /** A lesson the viewer cannot open yet (paid or level-locked course): title only, no snippet text. */
  locked: z.boolean(),
});
export type SearchResult = z.infer<typeof searchResultDto>;

export const searchGroupDto = z.object({
  kind: z.enum(SEARCH_KINDS),
  /** Matches the viewer may read, capped at SEARCH_LIMITS.countCap. */
  count: z.number().int(),
  results: z.array(searchResultDto),
  next_cursor: z.string().nullable(),
});

export const searchResponseDto = z.object({
  q: z.string(),
  groups: z.array(searchGroupDto),
});
export type SearchResponse = z.infer<typeof searchResponseDto>;
