import type { IncomingMessage } from "node:http";
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, codeForStatus, errorBody, isDatabaseUnavailable } from "#server/lib/errors";

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

/**
 * Every error becomes `{ error: { code, message } }`: an AppError as it says, a schema failure as
 * VALIDATION (with the field), other 4xx by their status, a lost database as 503, the rest as 500.
 */
export function setErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.code === "RATE_LIMITED") {
        const retry = (err.details as { retryAfter?: number } | undefined)?.retryAfter;
        if (retry) reply.header("retry-after", String(retry));
      }
      if (err.code === "PAYLOAD_TOO_LARGE") drainRefusedBody(request.raw);
      // A validation error may name the field it belongs to (shown next to it): { field } in details.
      const field = (err.details as { field?: unknown } | undefined)?.field;
      return reply
        .status(err.status)
        .send(errorBody(err.code, err.message, typeof field === "string" ? { field } : {}));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const field = first?.instancePath?.replace(/^\//, "").replaceAll("/", ".");
      const message = first?.message ?? "Invalid request";
      return reply.status(400).send(errorBody("VALIDATION", message, field ? { field } : {}));
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
      return reply.status(status).send(errorBody(code, message));
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
      return reply.status(400).send(errorBody("BAD_REQUEST", "The request was cancelled"));
    }
    if (unavailable) {
      request.log.warn({ err: err.message }, "database unavailable");
      return reply
        .status(503)
        .header("retry-after", "2")
        .send(errorBody("UNAVAILABLE", "The service is temporarily unavailable. Please try again."));
    }
    request.log.error({ err }, "request failed");
    return reply.status(500).send(errorBody("INTERNAL", "An unexpected error occurred"));
  });
}
