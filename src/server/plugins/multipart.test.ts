import multipart from "@fastify/multipart";
import Fastify, { type FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { multipart as body } from "#server/test/harness";
import { registerMultipart } from "./multipart";

/** A bare app with the given registration, a route that reads one streamed file, and a probe. */
async function appWith(register: (app: FastifyInstance) => Promise<unknown>) {
  const app = Fastify();
  await register(app);
  const closeListeners: number[] = [];
  // Added after the plugin: sees what its onRequest hook left on the response.
  app.addHook("onRequest", (_request, reply, done) => {
    closeListeners.push(reply.raw.listenerCount("close"));
    done();
  });
  app.get("/plain", async () => ({ ok: true }));
  app.post("/upload", async (request) => {
    const part = await request.file();
    if (!part) return { name: null };
    const bytes = await part.toBuffer();
    return { name: part.filename, size: bytes.length, field: (part.fields.note as { value?: string })?.value };
  });
  await app.ready();
  return { app, closeListeners };
}

describe("registerMultipart (stream mode only)", () => {
  it("adds no per-request listener where the plugin as published adds one", async () => {
    const published = await appWith(async (app) => {
      await app.register(multipart);
    });
    const ours = await appWith((app) => registerMultipart(app, {}));
    await published.app.inject({ method: "GET", url: "/plain" });
    await ours.app.inject({ method: "GET", url: "/plain" });
    expect(published.closeListeners[0]).toBe(ours.closeListeners[0] + 1);
    await published.app.close();
    await ours.app.close();
  });

  it("still streams a file with the fields sent before it, and honours the limits", async () => {
    const { app } = await appWith((a) => registerMultipart(a, { limits: { fileSize: 10 } }));
    const ok = body("a.txt", "text/plain", Buffer.from("hello"), { note: "first" });
    const res = await app.inject({
      method: "POST",
      url: "/upload",
      headers: { "content-type": ok.contentType },
      payload: ok.payload,
    });
    expect(res.json()).toEqual({ name: "a.txt", size: 5, field: "first" });
    const big = body("b.txt", "text/plain", Buffer.alloc(50, 1));
    const refused = await app.inject({
      method: "POST",
      url: "/upload",
      headers: { "content-type": big.contentType },
      payload: big.payload,
    });
    expect(refused.statusCode).toBe(413);
    await app.close();
  });
});
