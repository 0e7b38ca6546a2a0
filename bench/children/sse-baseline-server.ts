/**
 * The realtime baseline: a bare node:http Server-Sent Events server, the cheapest one that gives a
 * client the same frames as Hearth's live feed. `GET /stream` answers 200 text/event-stream, writes
 * a `retry:` line and a `ready` frame as Hearth does, and holds the stream open; `POST /fire` with
 * `{ "event": "...", "data": { ... } }` writes one frame (`id:`, `event:`, `data:` as Hearth writes
 * them) to every open stream, in one synchronous loop, then answers `{ "streams": <count> }`.
 * No access check, no database, no per-stream state beyond the response itself.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { announceReady, answerParent, onParentStop } from "./protocol";

const streams = new Set<http.ServerResponse>();
let lastId = 0;

const frame = (id: number, event: string, data: unknown) =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url?.split("?")[0] === "/stream") {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    });
    req.socket.setNoDelay(true);
    res.write("retry: 2000\n\n");
    res.write(frame(lastId, "ready", { type: "ready" }));
    streams.add(res);
    res.on("close", () => streams.delete(res));
    return;
  }
  if (req.method === "POST" && req.url === "/fire") {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const { event, data } = JSON.parse(Buffer.concat(chunks).toString()) as { event: string; data: unknown };
      const text = frame(++lastId, event, data);
      for (const s of streams) s.write(text);
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ streams: streams.size }));
    });
    return;
  }
  req.resume();
  res.writeHead(404, { "content-type": "application/json; charset=utf-8" });
  res.end('{"error":{"code":"NOT_FOUND","message":"No route"}}');
});

answerParent({});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  onParentStop(
    () =>
      new Promise<void>((resolve) => {
        for (const s of streams) s.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  announceReady(`http://127.0.0.1:${port}`);
});
