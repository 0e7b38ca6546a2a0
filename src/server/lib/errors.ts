import type { ErrorCode } from "#shared/errors";

export type { ErrorCode };

/** The HTTP status of each error code (the codes: src/shared/errors.ts). */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  /** A private community seen by someone who is not a member: the gate, nothing else. */
  PRIVATE_COMMUNITY: 403,
  NOT_FOUND: 404,
  PAYMENT_REQUIRED: 402,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const satisfies Record<ErrorCode, number>;

/** The code for an HTTP status raised outside our code (Fastify, plugins); 400 reads as BAD_REQUEST. */
export function codeForStatus(status: number): ErrorCode {
  if (status === ERROR_STATUS.BAD_REQUEST) return "BAD_REQUEST";
  const found = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((code) => ERROR_STATUS[code] === status);
  return found ?? (status >= 500 ? "INTERNAL" : "BAD_REQUEST");
}

/** An error answer's body, for the few places that send one without throwing an AppError. */
export function errorBody<E extends Record<string, unknown>>(
  code: ErrorCode,
  message: string,
  extra?: E,
): { error: { code: ErrorCode; message: string } & E } {
  return { error: { code, message, ...(extra as E) } };
}

/** The one error type: a code the client branches on and the text a person sees. */
export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = "Not found") => new AppError("NOT_FOUND", what);
export const unauthorized = (msg = "Please sign in to continue") => new AppError("UNAUTHORIZED", msg);
export const forbidden = (msg = "Insufficient permissions") => new AppError("FORBIDDEN", msg);

/**
 * Whether an error means the database cannot be reached right now (stopped, restarting, network):
 * the request is answered 503 and retried later rather than reported as a fault. Drizzle wraps the
 * driver's error, so the whole cause chain is looked at.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth++
  ) {
    // Node's request stream fails with "aborted" (code ECONNRESET) when the client goes away
    // mid-body: the client's connection, never the database's.
    if (e.message === "aborted") return false;
    const code = typeof e.code === "string" ? e.code : "";
    // SQLSTATE class 08 (connection exception) and 57P01–57P03 (shutdown, crash, cannot connect now).
    if (/^08...$/.test(code) || /^57P0[123]$/.test(code)) return true;
    if (code === "ECONNREFUSED" || code === "ECONNRESET" || code === "EPIPE" || code === "ETIMEDOUT") return true;
    if (
      /ECONNREFUSED|timeout exceeded when trying to connect|Connection terminated|the database system is|terminating connection|Client has encountered a connection error/i.test(
        String(e.message ?? ""),
      )
    )
      return true;
    e = e.cause as typeof e;
  }
  return false;
}
