/**
 * The codes of Hearth's API errors (`{ error: { code, message } }`): what the web branches on. One
 * list for both sides; the server's AppError takes only these (lib/errors.ts gives each its status),
 * so a misspelt code fails the type check. Better Auth's endpoints under /api/auth answer with
 * codes of their own as well: those Hearth reads are AUTH_ERROR_CODES.
 */
export const ERROR_CODES = [
  "BAD_REQUEST",
  "VALIDATION",
  "UNAUTHORIZED",
  "FORBIDDEN",
  /** A private community seen by someone who is not a member: the gate, nothing else. */
  "PRIVATE_COMMUNITY",
  "NOT_FOUND",
  /** A paid community or course: a checkout comes first. */
  "PAYMENT_REQUIRED",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "RATE_LIMITED",
  "INTERNAL",
  "UNAVAILABLE",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Better Auth's codes that Hearth gives its own messages (features/auth/auth.routes.ts) or the web
 * branches on, and USERNAME_TAKEN, raised by Hearth's Better Auth hooks (lib/auth.ts).
 */
export const AUTH_ERROR_CODES = [
  "EMAIL_NOT_VERIFIED",
  "INVALID_PASSWORD",
  "INVALID_TOKEN",
  "PASSWORD_TOO_SHORT",
  "USERNAME_TAKEN",
] as const;

export type AuthErrorCode = (typeof AUTH_ERROR_CODES)[number];

/** The code the web client gives a request that got no answer at all. */
export const NETWORK_ERROR_CODE = "NETWORK";

/** Every code a web caller may meet on an error: the API's, Better Auth's, and no answer at all. */
export type ApiErrorCode = ErrorCode | AuthErrorCode | typeof NETWORK_ERROR_CODE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}
