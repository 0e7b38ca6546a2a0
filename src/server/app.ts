import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config";
import { createAppContext, type AppContext } from "./context";
import type { Database } from "./db/client";
import { accountRoutes } from "./features/account/account.routes";
import { authRoutes } from "./features/auth/auth.routes";
import { billingRoutes } from "./features/billing/billing.routes";
import { commentRoutes } from "./features/comments/comments.routes";
import { communityRoutes } from "./features/communities/communities.routes";
import { adminRoutes } from "./features/admin/admin.routes";
import { devRoutes } from "./features/dev/dev.routes";
import { publicConfigRoutes } from "./features/health/config.routes";
import { healthRoutes } from "./features/health/health.routes";
import { inviteRoutes } from "./features/invites/invites.routes";
import { leaderboardRoutes } from "./features/leaderboards/leaderboards.routes";
import { levelJobHandlers, levelRoutes } from "./features/levels/index";
import { mediaRoutes } from "./features/media/media.routes";
import { uploadRoutes } from "./features/uploads/uploads.routes";
import { courseRoutes } from "./features/courses/courses.routes";
import { eventJobHandlers, eventRoutes } from "./features/events/index";
import { calendarFeedRoutes } from "./features/events/calendar-feed.routes";
import { calendarMonthRoutes } from "./features/events/calendar-month.routes";
import { rsvpRoutes } from "./features/events/rsvp.routes";
import { memberRoutes } from "./features/members/members.routes";
import { membershipRoutes } from "./features/membership/index";
import { messageJobHandlers, messageRoutes } from "./features/messages/index";
import { postRoutes } from "./features/posts/posts.routes";
import { profileRoutes } from "./features/profiles/profiles.routes";
import { notificationRoutes } from "./features/notifications/notifications.routes";
import { notificationJobHandlers } from "./features/notifications/notifications.service";
import { reminderJobHandlers } from "./features/events/reminders";
import {
  paymentJobHandlers,
  paymentRoutes,
  payoutRoutes,
  pricingRoutes,
  revenueRoutes,
} from "./features/payments/index";
import { realtimeRoutes } from "./features/realtime/realtime.routes";
import { reportRoutes } from "./features/reports/index";
import { searchRoutes, startSearchBackfill } from "./features/search/index";
import { canonicalUrl } from "./lib/canonical-url";
import { mediaJobHandlers } from "./lib/uploads";
import type { Storage } from "./lib/storage";
import { registerApiReference, registerOpenApi } from "./plugins/api-docs";
import { startBackgroundWork } from "./plugins/background";
import { registerCompression } from "./plugins/compression";
import { registerMultipart } from "./plugins/multipart";
import { setErrorHandler } from "./plugins/error-handler";
import { setJsonBodyParser } from "./plugins/json-body";
import { addApiCacheHeaders, addCrossSiteGuard, registerSecurityHeaders } from "./plugins/security";
import { registerWebShell, WEB_DIST } from "./plugins/web-shell";

export { WEB_DIST };

export type BuildAppOptions = {
  config: Config;
  database: Database;
  storage?: Storage;
  logger?: FastifyServerOptions["logger"];
  startWorker?: boolean;
  /** The built web app to serve (default dist/web). */
  webDist?: string;
};

export type HearthApp = FastifyInstance & { ctx: AppContext };

/**
 * The app's wiring. The order is the behaviour: hooks run in the order they are added, and a
 * plugin's routes get the root's hooks added before it was registered (plugins/security.ts).
 * Each step below is a function that works on the root instance, not an encapsulated plugin.
 */
export async function buildApp(opts: BuildAppOptions): Promise<HearthApp> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Every decision (routing, CSRF, rate limits, access, Better Auth) is made on one spelling of
    // the path: "/%61pi/./x" is "/api/x" before anything looks at it.
    rewriteUrl: (req) => canonicalUrl(req.url ?? "/"),
  }).withTypeProvider<ZodTypeProvider>();
  // The plugin functions take the plain instance; the routes keep the Zod type provider.
  const root = app as unknown as FastifyInstance;

  setJsonBodyParser(root);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const ctx = await createAppContext({ config, database, storage: opts.storage, log: app.log });
  app.decorate("ctx", ctx);
  ctx.worker.register(mediaJobHandlers(ctx));
  ctx.worker.register(notificationJobHandlers(ctx));
  ctx.worker.register(paymentJobHandlers(ctx));
  ctx.worker.register(reminderJobHandlers(ctx));
  ctx.worker.register(eventJobHandlers(ctx));
  ctx.worker.register(levelJobHandlers(ctx));
  ctx.worker.register(messageJobHandlers(ctx));

  // Declared before the first request, so every request object has it from its construction (one
  // shape, no property store added when the session is looked up; issue 23).
  root.decorateRequest("viewerPromise", null);
  registerSecurityHeaders(root, config);
  registerCompression(root);
  await registerMultipart(root, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 10 } });
  await registerOpenApi(root);

  addCrossSiteGuard(root, config);
  addApiCacheHeaders(root);
  setErrorHandler(root);

  await app.register(healthRoutes, { ctx });
  await app.register(publicConfigRoutes, { ctx });
  await app.register(authRoutes, { ctx });
  await app.register(profileRoutes, { ctx });
  await app.register(accountRoutes, { ctx });
  await app.register(communityRoutes, { ctx });
  await app.register(memberRoutes, { ctx });
  await app.register(membershipRoutes, { ctx });
  await app.register(inviteRoutes, { ctx });
  await app.register(postRoutes, { ctx });
  await app.register(commentRoutes, { ctx });
  await app.register(leaderboardRoutes, { ctx });
  await app.register(levelRoutes, { ctx });
  await app.register(mediaRoutes, { ctx });
  await app.register(uploadRoutes, { ctx });
  await app.register(courseRoutes, { ctx });
  await app.register(eventRoutes, { ctx });
  await app.register(calendarFeedRoutes, { ctx });
  await app.register(calendarMonthRoutes, { ctx });
  await app.register(rsvpRoutes, { ctx });
  await app.register(notificationRoutes, { ctx });
  await app.register(messageRoutes, { ctx });
  await app.register(billingRoutes, { ctx });
  await app.register(paymentRoutes, { ctx });
  await app.register(pricingRoutes, { ctx });
  await app.register(revenueRoutes, { ctx });
  await app.register(payoutRoutes, { ctx });
  await app.register(realtimeRoutes, { ctx });
  await app.register(reportRoutes, { ctx });
  await app.register(searchRoutes, { ctx });
  await app.register(devRoutes, { ctx });
  await app.register(adminRoutes, { ctx });

  await registerApiReference(root);
  await registerWebShell(root, { config, webDist: opts.webDist ?? WEB_DIST });
  startBackgroundWork(root, ctx, { startWorker: opts.startWorker !== false });
  startSearchBackfill(root, ctx);

  return app as unknown as HearthApp;
}
