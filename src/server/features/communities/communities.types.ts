import type { AppContext, Viewer } from "#server/context";

/** A signed-in viewer's request about one community (named by id or slug), with what else it carries. */
export type CommunityRequest<Extra = unknown> = { ctx: AppContext; viewer: Viewer; idOrSlug: string } & Extra;

/** A request about one community by anyone, signed in or not (viewer null). */
export type CommunityVisit<Extra = unknown> = { ctx: AppContext; viewer: Viewer | null; idOrSlug: string } & Extra;
