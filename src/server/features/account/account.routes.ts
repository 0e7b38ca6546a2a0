import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "#server/context";
import { authFactors, twoFactor, user } from "#server/db/schema/index";
import { errorResponses } from "#server/lib/schemas";

const factorDto = z.object({
  friendly_name: z.string(),
  factor_type: z.enum(["totp", "phone"]),
  status: z.enum(["verified", "unverified"]),
  created_at: z.string().nullable(),
});

/** Second factors as the Security tab lists them (SPEC §3 auth factors); Better Auth keeps the secrets. */
export const accountRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/api/me/factors",
    {
      schema: {
        tags: ["account"],
        summary: "The signed-in user's second factors",
        response: { 200: z.object({ factors: z.array(factorDto) }), ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      const [row] = await ctx.db
        .select({
          enabled: user.twoFactorEnabled,
          secretId: twoFactor.id,
          label: authFactors.friendlyName,
          labelledAt: authFactors.createdAt,
        })
        .from(user)
        .leftJoin(twoFactor, eq(twoFactor.userId, user.id))
        .leftJoin(authFactors, eq(authFactors.userId, user.id))
        .where(eq(user.id, viewer.id))
        .limit(1);
      if (!row?.secretId) return { factors: [] };
      return {
        factors: [
          {
            friendly_name: row.label ?? "Authenticator app",
            factor_type: "totp" as const,
            status: row.enabled ? ("verified" as const) : ("unverified" as const),
            created_at: row.labelledAt?.toISOString() ?? null,
          },
        ],
      };
    },
  );

  app.put(
    "/api/me/factors/totp",
    {
      schema: {
        tags: ["account"],
        summary: "Name the authenticator app factor",
        body: z.object({ friendly_name: z.string().trim().min(1, "Please enter a name").max(60) }).strict(),
        response: { 200: z.object({ friendly_name: z.string() }), ...errorResponses },
      },
    },
    async (request) => {
      const viewer = await ctx.requireViewer(request);
      const name = request.body.friendly_name;
      await ctx.db
        .insert(authFactors)
        .values({ userId: viewer.id, friendlyName: name })
        .onConflictDoUpdate({ target: authFactors.userId, set: { friendlyName: name } });
      return { friendly_name: name };
    },
  );
};
