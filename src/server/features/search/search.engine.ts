import type { CommunityRole } from "#shared/roles";
import type { SearchQuery, SearchResponse } from "#shared/search.schemas";

/**
 * What a search engine answers to (docs/decisions/0018-search.md). The PostgreSQL engine
 * (search.postgres.ts) is the one Hearth runs; another engine would implement the same call,
 * keep its own documents from the same writes, and still leave the last word on who may read a
 * result to the database (see the decision record).
 */
/**
 * One community, with the viewer's role there (null: not a member) and its visibility as the route
 * read them (the community and member caches, dropped in every process when either changes), or
 * every community the viewer may read.
 */
export type SearchScope = { communityId: string; role: CommunityRole | null; visibility: string } | { all: true };

/** The query as the routes validate it (searchQuerySchema), with who asks and where. */
export type SearchRequest = SearchQuery & { viewerId: string | null; scope: SearchScope };

export interface SearchEngine {
  search(request: SearchRequest): Promise<SearchResponse>;
}
