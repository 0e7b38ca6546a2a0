import helmet from "helmet";
import type { FastifyInstance } from "fastify";
import type { Config } from "#server/config";
import { AppError } from "#server/lib/errors";
import { hasSessionCookie } from "#server/lib/session";

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

/** The API reference page runs its own bundled script inline: it alone gets a looser policy. */
const API_DOCS_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

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

/**
 * The security headers every answer carries, as helmet writes them for this configuration: the
 * content security policy, HSTS, the referrer policy and the rest of helmet's defaults. They depend
 * on the configuration alone, so helmet runs once, at start, against a recording response.
 */
export function securityHeaders(config: Config): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspFor(config) },
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: "same-origin" },
  })({} as never, res as never, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    finished = true;
  });
  // helmet's middleware is synchronous; a version that is not would leave answers unprotected.
  if (!finished) throw new Error("helmet did not set the security headers synchronously");
  return headers;
}

/** Sets the security headers on every answer, before any route or error handler runs. */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const headers = securityHeaders(config);
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/**
 * Cross-site request protection for every cookie-authenticated write: a browser always sends
 * Origin or Sec-Fetch-Site on a cross-site POST; forms can only send urlencoded, multipart or text/plain.
 */
export function addCrossSiteGuard(app: FastifyInstance, config: Config): void {
  const ownOrigin = new URL(config.publicUrl).origin;
  // A callback hook, not an async one: no promise on every request (issue 23).
  app.addHook("onRequest", (request, _reply, done) => {
    // Every path, not only /api/: a write that no route takes is refused the same way.
    if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return done();
    // Routes that take no session (a signed token instead) may be called from anywhere.
    if (request.routeOptions.config?.crossSite) return done();
    const site = request.headers["sec-fetch-site"];
    if (site && site !== "same-origin" && site !== "none") {
      return done(new AppError("FORBIDDEN", "Cross-site requests are not allowed"));
    }
    const origin = request.headers.origin;
    if (origin && origin !== ownOrigin && origin !== `${request.protocol}://${request.headers.host}`) {
      return done(new AppError("FORBIDDEN", "Cross-site requests are not allowed"));
    }
    const type = (request.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    const hasBody = Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"];
    if (hasBody && type !== "application/json" && type !== "multipart/form-data") {
      return done(new AppError("UNSUPPORTED_MEDIA_TYPE", "Requests must be sent as JSON"));
    }
    done();
  });
}

/**
 * An API answer may depend on who asks: shared caches keep it apart per cookie, and never store
 * one given to a signed-in request (routes that set their own Cache-Control keep it).
 */
export function addApiCacheHeaders(app: FastifyInstance): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    if (!request.url.startsWith("/api/")) return done(null, payload);
    const vary = reply.getHeader("vary");
    if (!vary) reply.header("vary", "Cookie");
    else if (!/(^|,)\s*cookie\s*(,|$)/i.test(String(vary))) reply.header("vary", `${String(vary)}, Cookie`);
    if (!reply.hasHeader("cache-control") && hasSessionCookie(request)) {
      reply.header("cache-control", "private, no-store");
    }
    done(null, payload);
  });
}

/**
 * The looser policy of the API reference page. Added after the feature routes, like the hook it
 * replaces: it reaches the root's routes and the plugins registered after it (the reference page).
 */
export function addApiDocsPolicy(app: FastifyInstance): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.url.startsWith("/api/docs")) {
      reply.header("content-security-policy", API_DOCS_CSP);
    }
    done(null, payload);
  });
}
