import type { FastifyReply } from "fastify";

/**
 * Sends an answer already serialized as JSON (a kept page, a body made once per viewer, a constant):
 * Fastify sends a string with a JSON content type as it is, so neither the route's response check
 * nor its serializer runs again on it (issue 23, per-request layers). The route's schema still
 * describes the answer for the OpenAPI document; whoever made the text made it from that shape.
 * Takes any route's reply (a typed route's `send` expects the schema's object, not its text).
 */
export function sendJsonText(reply: unknown, body: string): FastifyReply {
  return (reply as FastifyReply).type("application/json; charset=utf-8").send(body);
}
