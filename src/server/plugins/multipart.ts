import { fastifyMultipart, type FastifyMultipartOptions } from "@fastify/multipart";
import type { FastifyInstance } from "fastify";

/** The hooks @fastify/multipart adds to every request only to remove the temporary files of its disk mode. */
const DISK_MODE_HOOKS = new Set(["onRequest", "onResponse"]);

/**
 * @fastify/multipart in stream mode only (every upload is streamed: lib/uploads.ts filePart). The
 * plugin adds two hooks to every request of the app, an async `onRequest` that listens for the
 * socket's close and an async `onResponse`, whose only work is removing the temporary files that
 * its disk mode (`saveRequestFiles`) writes, which Hearth never uses. They are left out: a request
 * that carries no file, nearly every one, no longer pays two promises and a listener (issue 23,
 * item 2). The parser, the request decorators and the limits are the plugin's own. Registered on
 * the root, directly (not encapsulated), as the plugin itself would be.
 */
export async function registerMultipart(app: FastifyInstance, options: FastifyMultipartOptions): Promise<void> {
  const addHook = app.addHook.bind(app);
  const scoped = Object.create(app, {
    addHook: {
      value: (name: string, fn: unknown) => (DISK_MODE_HOOKS.has(name) ? scoped : addHook(name as never, fn as never)),
    },
  }) as FastifyInstance;
  await new Promise<void>((resolve, reject) =>
    fastifyMultipart(scoped, options, (err?: Error) => (err ? reject(err) : resolve())),
  );
}
