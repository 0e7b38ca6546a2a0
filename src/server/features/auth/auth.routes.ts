import { fromNodeHeaders } from "better-auth/node";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { MSG } from "#shared/messages";
import { safeRedirectPath } from "#shared/safe-redirect";
import { AppError, notFound } from "#server/lib/errors";
import type { AppContext } from "#server/context";
import { RATE_RULES, type RateRule } from "#server/lib/rate-limit";
import { sendJsonText } from "#server/lib/json-reply";

/** Better Auth's error codes, answered with the spec's texts where the spec has one. */
const MESSAGES_BY_CODE: Record<string, Record<string, string>> = {
  "/change-password": { INVALID_PASSWORD: MSG.currentPasswordIncorrect, PASSWORD_TOO_SHORT: MSG.passwordTooShort },
  "/reset-password": { INVALID_TOKEN: MSG.invalidResetLink, PASSWORD_TOO_SHORT: MSG.passwordTooShort },
  "/sign-up/email": { PASSWORD_TOO_SHORT: MSG.passwordTooShort },
  "/sign-in/email": { EMAIL_NOT_VERIFIED: MSG.emailNotConfirmed },
};

/** What a Better Auth path is made of; its tokens in paths are URL-safe base64 or hex. */
const AUTH_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

const REDIRECT_PARAMS = ["callbackURL", "redirectTo", "errorCallbackURL", "newUserCallbackURL"] as const;

/**
 * Answers that must not tell whether an email has an account take at least this long: behind the
 * same answer, sign-up creates an account or only mails the owner, and a reset request stores a
 * token or nothing, which would otherwise show in the response time (Better Auth pads
 * send-verification-email the same way, to 500 ms). The work takes about 20 ms on an idle
 * server: the floor keeps hiding it on a busy one.
 */
export const UNIFORM_ANSWER_MS: Record<string, number> = { "/sign-up/email": 400, "/request-password-reset": 400 };

type Limit = { rule: RateRule; key: (ip: string, body: Record<string, unknown>) => string | null };
export const LIMITS_BY_PATH: Record<string, Limit[]> = {
  "/sign-in/email": [
    { rule: RATE_RULES.signInPerIp, key: (ip) => `sign-in:ip:${ip}` },
    {
      rule: RATE_RULES.signInPerAccount,
      key: (_ip, b) => (typeof b.email === "string" ? `sign-in:acct:${b.email.trim().toLowerCase()}` : null),
    },
  ],
  "/sign-up/email": [{ rule: RATE_RULES.signUpPerIp, key: (ip) => `sign-up:ip:${ip}` }],
  "/request-password-reset": [
    { rule: RATE_RULES.resetPerIp, key: (ip) => `reset:ip:${ip}` },
    {
      rule: RATE_RULES.resetPerAccount,
      key: (_ip, b) => (typeof b.email === "string" ? `reset:acct:${b.email.trim().toLowerCase()}` : null),
    },
  ],
  "/reset-password": [{ rule: RATE_RULES.verifyPerIp, key: (ip) => `reset-use:ip:${ip}` }],
  "/verify-email": [{ rule: RATE_RULES.verifyPerIp, key: (ip) => `verify:ip:${ip}` }],
  "/send-verification-email": [{ rule: RATE_RULES.resetPerIp, key: (ip) => `verify-send:ip:${ip}` }],
  "/change-password": [{ rule: RATE_RULES.signInPerIp, key: (ip) => `change-password:ip:${ip}` }],
  "/two-factor/verify-totp": [{ rule: RATE_RULES.twoFactorPerIp, key: (ip) => `2fa:ip:${ip}` }],
  "/two-factor/verify-backup-code": [{ rule: RATE_RULES.twoFactorPerIp, key: (ip) => `2fa:ip:${ip}` }],
  "/two-factor/enable": [{ rule: RATE_RULES.twoFactorPerIp, key: (ip) => `2fa:ip:${ip}` }],
  "/two-factor/disable": [{ rule: RATE_RULES.twoFactorPerIp, key: (ip) => `2fa:ip:${ip}` }],
};

/**
 * Better Auth answers everything under /api/auth. This route hands it a web Request, applies the
 * rate limits per IP and per account, and reshapes errors into the one error shape.
 */
export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    schema: { hide: true },
    handler: async (request, reply) => {
      const started = performance.now();
      // request.url is already canonical (lib/canonical-url, before routing): the path the limits,
      // the answer-time floor and the forced session revocation are looked up by is the very path
      // Better Auth is handed. Its paths are plain words; anything else (an escape left after
      // canonicalization) is no route of it.
      const [rawPath, query = ""] = request.url.slice("/api/auth".length).split("?");
      if (!AUTH_PATH.test(rawPath)) throw notFound();
      const subPath = rawPath.startsWith("/reset-password/") ? "/reset-password/token" : rawPath;
      let body = (request.body && typeof request.body === "object" ? request.body : {}) as Record<string, unknown>;

      // Every place Better Auth may redirect to must be a relative path on this site (no open redirect).
      const params = new URLSearchParams(query);
      for (const name of REDIRECT_PARAMS) {
        for (const value of [body[name], params.get(name)]) {
          if (
            value !== undefined &&
            value !== null &&
            (typeof value !== "string" || safeRedirectPath(value) !== value)
          ) {
            throw new AppError("FORBIDDEN", "Invalid redirect address");
          }
        }
      }

      for (const limit of LIMITS_BY_PATH[subPath] ?? []) {
        const key = limit.key(request.ip, body);
        if (key) await ctx.rateLimiter.hit(key, limit.rule);
      }
      // A password change always ends the user's other sessions.
      if (subPath === "/change-password") body = { ...body, revokeOtherSessions: true };

      // Whatever this call changes about the signed-in user is dropped from this process's cache now;
      // other processes hear it from the database triggers.
      const before = request.method === "POST" ? await ctx.viewer(request) : null;

      const headers = fromNodeHeaders(request.headers);
      headers.delete("content-length");
      headers.set("x-hearth-client-ip", request.ip);
      const url = new URL(`/api/auth${rawPath}${query ? `?${query}` : ""}`, ctx.config.publicUrl);
      const res = await ctx.auth.handler(
        new Request(url, {
          method: request.method,
          headers,
          body: request.method === "POST" ? JSON.stringify(body) : undefined,
        }),
      );

      if (before) ctx.viewer.evictUser(before.id);
      const wait = (UNIFORM_ANSWER_MS[subPath] ?? 0) - (performance.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      reply.status(res.status);
      res.headers.forEach((value, key) => {
        if (key !== "set-cookie" && key !== "content-length" && key !== "content-encoding") reply.header(key, value);
      });
      const cookies = res.headers.getSetCookie();
      if (cookies.length) reply.header("set-cookie", cookies);
      const text = await res.text();
      if (res.status >= 400 && text && (res.headers.get("content-type") ?? "").includes("json")) {
        let parsed: { code?: string; message?: string } = {};
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON after all
        }
        const code = parsed.code ?? "BAD_REQUEST";
        const message = MESSAGES_BY_CODE[subPath]?.[code] ?? parsed.message ?? "Request failed";
        return reply.send({ error: { code, message } });
      }
      if (text.length && (res.headers.get("content-type") ?? "").includes("json")) {
        // The session token lives only in the HttpOnly cookie; script never needs to see it.
        const parsed = JSON.parse(text) as unknown;
        if (parsed && typeof parsed === "object" && "token" in parsed) delete (parsed as { token?: unknown }).token;
        return sendJsonText(reply, JSON.stringify(parsed));
      }
      return reply.send(text.length ? text : null);
    },
  });
};
