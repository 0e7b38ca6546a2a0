import type { IncomingMessage } from "node:http";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { Negotiator } from "@fastify/accept-negotiator";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import helmet from "@fastify/helmet";
import multipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Config } from "./config";
import type { AppContext } from "./context";
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
import { mediaRoutes } from "./features/media/media.routes";
import { uploadRoutes } from "./features/uploads/uploads.routes";
import { courseRoutes } from "./features/courses/courses.routes";
import { memberRoutes } from "./features/members/members.routes";
import { postRoutes } from "./features/posts/posts.routes";
import { profileRoutes } from "./features/profiles/profiles.routes";
import { notificationRoutes } from "./features/notifications/notifications.routes";
import { notificationJobHandlers } from "./features/notifications/notifications.service";
import { realtimeRoutes } from "./features/realtime/realtime.routes";
import { createAuth } from "./lib/auth";
import { canonicalUrl } from "./lib/canonical-url";
import { AppError, codeForStatus, isDatabaseUnavailable, unauthorized } from "./lib/errors";
import { JobWorker } from "./lib/jobs";
import { mediaJobHandlers, sweepMedia } from "./lib/uploads";
import { PgListener } from "./lib/pg-listener";
import { createMailer } from "./lib/mail";
import { createPageShell } from "./lib/page-shell";
import { FEED_CHANNEL, PublicCache } from "./lib/public-cache";
import { jsonDeeperThan, MAX_JSON_DEPTH } from "./lib/json-depth";
import { createRateLimiter } from "./lib/rate-limit";
import { RealtimeHub } from "./lib/realtime";
import { createViewerLookup, hasSessionCookie, SESSION_COOKIE } from "./lib/session";
import { createStorage, type Storage } from "./lib/storage";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Brotli at a level that costs about what gzip does (the default, 11, is for build-time assets). */
const BROTLI_QUICK = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

export const WEB_DIST = path.join(root, "dist/web");

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

const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'none'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:", "blob:", "https:"],
  mediaSrc: ["'self'", "blob:", "https:"],
  fontSrc: ["'self'", "data:"],
  connectSrc: ["'self'"],
  frameSrc: ["https://www.youtube-nocookie.com", "https://www.youtube.com", "https://player.vimeo.com"],
  upgradeInsecureRequests: null,
};

/**
 * An upload refused half-way (413): the rest of its body is read and thrown away for a few seconds,
 * then the connection is cut. Closing at once would make the kernel answer the unread bytes with a
 * reset, and the client could lose the 413 it was sent; a client that keeps sending is cut off.
 */
function drainRefusedBody(raw: IncomingMessage) {
  if (raw.complete) return;
  raw.unpipe();
  raw.resume();
  const socket = raw.socket;
  // Requests made with inject() have a stand-in socket that cannot be destroyed or closed.
  if (typeof socket?.destroy !== "function") return;
  const timer = setTimeout(() => socket.destroy(), 5_000);
  timer.unref();
  raw.once("end", () => clearTimeout(timer));
  socket.once("close", () => clearTimeout(timer));
}

/** With S3 storage, browsers PUT direct uploads to it and play videos from its signed URLs. */
function cspFor(config: Config) {
  if (!config.s3) return CSP_DIRECTIVES;
  const origin = config.s3.endpoint
    ? new URL(config.s3.endpoint).origin
    : `https://${config.s3.bucket}.s3.${config.s3.region}.amazonaws.com`;
  return {
    ...CSP_DIRECTIVES,
    connectSrc: [...CSP_DIRECTIVES.connectSrc, origin],
    mediaSrc: [...CSP_DIRECTIVES.mediaSrc, origin],
  };
}

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

  // JSON bodies as Fastify parses them, refused when they nest deeper than any of Hearth's own.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    parseJson(request, body as string, (err, value) => {
      if (err) return done(err, undefined);
      if (jsonDeeperThan(value, MAX_JSON_DEPTH)) {
        return done(new AppError("BAD_REQUEST", "The request body is nested too deeply"), undefined);
      }
      done(null, value);
    });
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const mailer = createMailer({
    db: database.db,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    onQueued: () => worker.kick(),
    // Unsent mail is a warning where it waits for the operators; on a developer's machine with the
    // local outbox on it is where mail is meant to go, so it is only noted.
    log: config.devMailbox ? { warn: (obj, msg) => app.log.info(obj, msg) } : app.log,
  });
  const worker: JobWorker = new JobWorker(database.db, { mail: mailer.deliverJob }, app.log);
  const auth = createAuth({ config, db: database.db, mailer });
  const listener = new PgListener(database.url, app.log);
  const viewer = createViewerLookup({
    auth,
    pool: database.pool,
    secret: config.authSecret,
    secureCookies: config.secureCookies,
    listener,
  });
  const publicCache = new PublicCache(listener);
  const feedCache = new PublicCache(listener, { channel: FEED_CHANNEL, scoped: true, maxEntries: 2_000 });
  const realtime = new RealtimeHub(database.pool, listener, app.log);
  await listener.start();
  const ctx: AppContext = {
    config,
    db: database.db,
    pool: database.pool,
    auth,
    mailer,
    storage: opts.storage ?? (await createStorage(config)),
    rateLimiter: createRateLimiter(database.db, config.rateLimits),
    worker,
    listener,
    log: app.log,
    publicCache,
    feedCache,
    realtime,
    viewer,
    requireViewer: async (request) => {
      const v = await viewer(request);
      if (!v) throw unauthorized();
      return v;
    },
  };
  app.decorate("ctx", ctx);
  worker.register(mediaJobHandlers(ctx));
  worker.register(notificationJobHandlers(ctx));

  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspFor(config) },
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: "same-origin" },
  });
  // JSON and pages over 1 KB go compressed to clients that ask (a feed page: about 50 KB → 10 KB).
  // Quick settings: it runs on every read. Built assets are precompressed at build time and sent as
  // they are; event streams take over the socket and are never buffered by it.
  await app.register(compress, {
    threshold: 1024,
    encodings: ["br", "gzip"],
    brotliOptions: BROTLI_QUICK,
    zlibOptions: { level: 6 },
  });
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 10 } });

  await app.register(swagger, {
    openapi: {
      info: { title: "Hearth API", version: "0.1.0", description: "The Hearth community platform API." },
      components: { securitySchemes: { session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE } } },
    },
    transform: jsonSchemaTransform,
  });

  // Cross-site request protection for every cookie-authenticated write: a browser always sends
  // Origin or Sec-Fetch-Site on a cross-site POST; forms can only send urlencoded, multipart or text/plain.
  const ownOrigin = new URL(config.publicUrl).origin;
  app.addHook("onRequest", async (request) => {
    // Every path, not only /api/: a write that no route takes is refused the same way.
    if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return;
    // Routes that take no session (a signed token instead) may be called from anywhere.
    if (request.routeOptions.config?.crossSite) return;
    const site = request.headers["sec-fetch-site"];
    if (site && site !== "same-origin" && site !== "none") {
      throw new AppError("FORBIDDEN", "Cross-site requests are not allowed");
    }
    const origin = request.headers.origin;
    if (origin && origin !== ownOrigin && origin !== `${request.protocol}://${request.headers.host}`) {
      throw new AppError("FORBIDDEN", "Cross-site requests are not allowed");
    }
    const type = (request.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    const hasBody = Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"];
    if (hasBody && type !== "application/json" && type !== "multipart/form-data") {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Requests must be sent as JSON");
    }
  });

  // An API answer may depend on who asks: shared caches keep it apart per cookie, and never store
  // one given to a signed-in request (routes that set their own Cache-Control keep it).
  app.addHook("onSend", async (request, reply) => {
    if (!request.url.startsWith("/api/")) return;
    const vary = reply.getHeader("vary");
    if (!vary) reply.header("vary", "Cookie");
    else if (!/(^|,)\s*cookie\s*(,|$)/i.test(String(vary))) reply.header("vary", `${String(vary)}, Cookie`);
    if (!reply.hasHeader("cache-control") && hasSessionCookie(request)) {
      reply.header("cache-control", "private, no-store");
    }
  });

  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.code === "RATE_LIMITED") {
        const retry = (err.details as { retryAfter?: number } | undefined)?.retryAfter;
        if (retry) reply.header("retry-after", String(retry));
      }
      if (err.code === "PAYLOAD_TOO_LARGE") drainRefusedBody(request.raw);
      return reply.status(err.status).send({ error: { code: err.code, message: err.message } });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const field = first?.instancePath?.replace(/^\//, "").replaceAll("/", ".");
      const message = first?.message ?? "Invalid request";
      return reply.status(400).send({
        error: { code: "VALIDATION", message, ...(field ? { field } : {}) },
      });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = codeForStatus(status);
      const message =
        err.code === "FST_ERR_CTP_INVALID_JSON_BODY" ||
        err.code === "FST_ERR_CTP_EMPTY_JSON_BODY" ||
        err instanceof SyntaxError
          ? "The request body is not valid JSON"
          : status === 413
            ? "The request body is too large"
            : err.message;
      return reply.status(status).send({ error: { code, message } });
    }
    const unavailable = isDatabaseUnavailable(err);
    // The client went away mid-request (a cancelled upload): nothing failed on our side. (A
    // request whose body was read is "destroyed" too: only a closed socket says the client left.)
    if (
      !unavailable &&
      (request.raw.socket?.destroyed === true ||
        (err as NodeJS.ErrnoException).code === "ECONNRESET" ||
        err.message === "aborted")
    ) {
      request.log.info({ err: err.message }, "client closed the request");
      return reply.status(400).send({ error: { code: "BAD_REQUEST", message: "The request was cancelled" } });
    }
    if (unavailable) {
      request.log.warn({ err: err.message }, "database unavailable");
      return reply
        .status(503)
        .header("retry-after", "2")
        .send({ error: { code: "UNAVAILABLE", message: "The service is temporarily unavailable. Please try again." } });
    }
    request.log.error({ err }, "request failed");
    return reply.status(500).send({ error: { code: "INTERNAL", message: "An unexpected error occurred" } });
  });

  await app.register(healthRoutes, { ctx });
  await app.register(publicConfigRoutes, { ctx });
  await app.register(authRoutes, { ctx });
  await app.register(profileRoutes, { ctx });
  await app.register(accountRoutes, { ctx });
  await app.register(communityRoutes, { ctx });
  await app.register(memberRoutes, { ctx });
  await app.register(inviteRoutes, { ctx });
  await app.register(postRoutes, { ctx });
  await app.register(commentRoutes, { ctx });
  await app.register(leaderboardRoutes, { ctx });
  await app.register(mediaRoutes, { ctx });
  await app.register(uploadRoutes, { ctx });
  await app.register(courseRoutes, { ctx });
  await app.register(notificationRoutes, { ctx });
  await app.register(billingRoutes, { ctx });
  await app.register(realtimeRoutes, { ctx });
  await app.register(devRoutes, { ctx });
  await app.register(adminRoutes, { ctx });

  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  // The API reference page runs its own bundled script inline: it alone gets a looser policy.
  app.addHook("onSend", async (request, reply) => {
    if (request.url.startsWith("/api/docs")) {
      reply.header(
        "content-security-policy",
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
      );
    }
  });
  const { default: scalar } = await import("@scalar/fastify-api-reference");
  await app.register(scalar, {
    routePrefix: "/api/docs",
    configuration: { url: "/api/openapi.json", title: "Hearth API", withDefaultFonts: false },
  });

  const webDist = opts.webDist ?? WEB_DIST;
  const webBuilt = config.serveWeb && existsSync(path.join(webDist, "index.html"));
  if (webBuilt) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: "/",
      wildcard: false,
      index: false,
      // Vite's manifest (.vite/) is for the server (lib/page-shell.ts), not for browsers.
      dotfiles: "ignore",
      // The build writes .br and .gz beside each text file (scripts/precompress.ts).
      preCompressed: true,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header("cache-control", "public, max-age=31536000, immutable");
        } else {
          res.header("cache-control", "no-cache");
        }
      },
    });
  }

  const pageShell = webBuilt ? createPageShell(webDist) : null;
  const pageEncodings = new Negotiator({ supportedValues: ["br", "gzip", "identity"] });
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === "GET" && !/^\/(api|assets|media|dev)(\/|$|\?)/.test(request.url);
    if (!isPage || !pageShell) {
      return reply
        .status(404)
        .send({ error: { code: "NOT_FOUND", message: `No route ${request.method} ${request.url.split("?")[0]}` } });
    }
    // Every other GET is a page of the single-page app, with hints for what that page loads first.
    const pathname = request.url.split("?")[0];
    const signedIn = hasSessionCookie(request);
    reply
      .header("cache-control", "no-cache")
      .header("vary", "cookie, accept-encoding")
      .type("text/html; charset=utf-8");
    // The not-found handler is not a route, so the compression hook does not reach it: compress here.
    const html = pageShell(pathname, signedIn);
    const encoding = pageEncodings.negotiate(String(request.headers["accept-encoding"] ?? ""));
    if (encoding === "br")
      return reply.header("content-encoding", "br").send(zlib.brotliCompressSync(html, BROTLI_QUICK));
    if (encoding === "gzip") return reply.header("content-encoding", "gzip").send(zlib.gzipSync(html, { level: 6 }));
    return reply.send(html);
  });

  // Media housekeeping (lib/uploads sweepMedia): hourly where jobs run, first a minute after start.
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () => {
    sweepMedia(ctx, { dataDir: config.dataDir }).catch((err) => app.log.error({ err }, "media sweep failed"));
    sweeper = setTimeout(sweep, 3_600_000).unref();
  };
  if (opts.startWorker !== false) sweeper = setTimeout(sweep, 60_000).unref();
  app.addHook("onClose", async () => {
    if (sweeper) clearTimeout(sweeper);
    await worker.stop();
    await listener.stop();
  });
  if (opts.startWorker !== false) worker.start();

  return app as unknown as HearthApp;
}
