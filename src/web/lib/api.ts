import createClient from "openapi-fetch";
import type { ApiErrorCode } from "#shared/errors";
import { FIRST_VIEW_ORIGIN } from "#shared/first-view";
import type { paths } from "./api-types";

/**
 * The one error type on the client: the server's `{ error: { code, message, field? } }`, or a network
 * failure. `field` is the request field a refusal belongs to (e.g. `recurrence.until`), when it names one.
 */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly field?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const NETWORK_ERROR_MESSAGE = "Could not reach Hearth. Check your connection and try again.";

function toApiError(status: number, body: unknown): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown; field?: unknown } } | null)?.error;
  const code = typeof error?.code === "string" ? error.code : status >= 500 ? "INTERNAL" : "BAD_REQUEST";
  const message = typeof error?.message === "string" && error.message ? error.message : "Something went wrong";
  return new ApiError(status, code, message, typeof error?.field === "string" ? error.field : undefined);
}

type Send = (request: Request) => Promise<Response>;
let send: Send = (request) => fetch(request);

/**
 * The server renders a page's first view with the same reads the page makes: it answers them
 * in-process, as the visitor (entry-server.tsx). The browser sends them.
 */
export function sendApiRequestsWith(sender: Send): void {
  send = sender;
}

/** Typed client for the API, generated from the server's OpenAPI document. */
export const api = createClient<paths>({
  // Relative in the browser; the server's renderer needs a whole URL, and answers it itself.
  baseUrl: typeof window === "undefined" ? FIRST_VIEW_ORIGIN : "",
  credentials: "same-origin",
  fetch: (request) => send(request),
});

/** Resolves to the response data, or throws an ApiError carrying the server's code and message. */
export async function unwrap<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof request>;
  try {
    result = await request;
  } catch {
    throw new ApiError(0, "NETWORK", NETWORK_ERROR_MESSAGE);
  }
  if (!result.response.ok) throw toApiError(result.response.status, result.error);
  return result.data as T;
}

/**
 * Better Auth's endpoints under /api/auth are not part of the OpenAPI document: they go through
 * this small JSON POST with the same error handling.
 */
export async function authPost<T = unknown>(path: `/${string}`, body: object = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/auth${path}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "NETWORK", NETWORK_ERROR_MESSAGE);
  }
  const text = await response.text();
  let json: unknown = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  if (!response.ok) throw toApiError(response.status, json);
  return json as T;
}

/** The message a person sees for a failed call: the server's when it is specific, else the fallback. */
export function errorMessage(error: unknown, fallback: string, specificCodes: readonly ApiErrorCode[] = []): string {
  if (error instanceof ApiError) {
    if (error.code === "NETWORK" || error.code === "RATE_LIMITED") return error.message;
    if ((specificCodes as readonly string[]).includes(error.code)) return error.message;
  }
  return fallback;
}
