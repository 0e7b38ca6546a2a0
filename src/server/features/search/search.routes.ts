import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { searchQuerySchema, searchResponseDto } from "#shared/search.schemas";
import type { AppContext } from "#server/context";
import { requireCommunityCached } from "#server/lib/community-access";
import { errorResponses } from "#server/lib/schemas";
import { createPostgresSearch } from "./search.postgres";

const params = z.object({ communityId: z.string().min(1).max(120) });
const description =
  "Posts (text, poll options, link titles), comments, courses, lessons and members the viewer may read, " +
  "grouped by kind with counts (capped), or one kind's page by keyset cursor. Stemmed in six European " +
  "languages, accents ignored, CJK matched by bigrams; the last word is a prefix while typing; quotes make " +
  "a phrase. Highlights are offsets into plain text.";

export const searchRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const engine = createPostgresSearch(ctx.db);

  app.get(
    "/api/communities/:communityId/search",
    {
      schema: {
        tags: ["search"],
        summary: "Search inside one community (a private one: members only)",
        description,
        params,
        querystring: searchQuerySchema,
        response: { 200: searchResponseDto, ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.viewer(request);
      // The cached row and role (dropped in every process when either changes): who may search, and
      // what each result's readability needs of the community, read once rather than joined per match.
      const { community, role } = await requireCommunityCached(ctx, request.params.communityId, viewer?.id);
      return engine.search({
        ...request.query,
        viewerId: viewer?.id ?? null,
        scope: { communityId: community.id, role, visibility: community.visibility },
      });
    },
  );

  app.get(
    "/api/search",
    {
      schema: {
        tags: ["search"],
        summary: "Search every community the viewer may read (theirs and public ones)",
        description,
        querystring: searchQuerySchema,
        response: { 200: searchResponseDto, ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.viewer(request);
      return engine.search({ ...request.query, viewerId: viewer?.id ?? null, scope: { all: true } });
    },
  );
};
