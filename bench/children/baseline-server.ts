/**
 * The baseline: a bare node:http server answering fixed bytes per path, the cheapest server that
 * gives a client the same response body. Routes come from the JSON file BENCH_BASELINE_ROUTES_FILE
 * (read once at start), keyed by path, or by path and query string when several queries of one path
 * answer differently. A route marked `readBody` answers only once the whole request body has been
 * read (and discarded): the cheapest server that receives an upload's bytes. With BENCH_WORKERS=N it
 * runs as N processes on one port, as Hearth does in the same run.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { announceReady, freePort, onParentStop } from "./protocol";
import { benchWorkers, forkWorkers, isBenchWorker, stopWithPrimary, stopWorkers, workerReady } from "./workers";

export type BaselineRoute = { status: number; contentType: string; bodyBase64: string; readBody?: boolean };

const routesFile = process.env.BENCH_BASELINE_ROUTES_FILE;
if (!routesFile) throw new Error("BENCH_BASELINE_ROUTES_FILE is required");
const routes = JSON.parse(readFileSync(routesFile, "utf8")) as Record<string, BaselineRoute>;
const answers = new Map(
  Object.entries(routes).map(([path, r]) => {
    const body = Buffer.from(r.bodyBase64, "base64");
    return [
      path,
      {
        status: r.status,
        body,
        headers: { "content-type": r.contentType, "content-length": String(body.length) },
        readBody: r.readBody === true,
      },
    ];
  }),
);
const notFound = Buffer.from('{"error":{"code":"NOT_FOUND","message":"No route"}}');

const server = http.createServer((req, res) => {
  const url = req.url ?? "/";
  const answer = answers.get(url) ?? answers.get(url.split("?")[0]);
  if (!answer) {
    res.writeHead(404, { "content-type": "application/json; charset=utf-8" });
    res.end(notFound);
    return;
  }
  const send = () => {
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };
  // Drain any request body before answering, as a real server would; `readBody` routes wait for its end.
  req.resume();
  if (answer.readBody && !req.complete) req.once("end", send);
  else send();
});
server.keepAliveTimeout = 72_000;

const close = () =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

// BENCH_WORKERS=N: N processes on one port, as Hearth runs with the same setting (workers.ts).
const workers = benchWorkers();
if (workers > 1 && !isBenchWorker()) {
  const port = await freePort();
  const forked = await forkWorkers(workers, { BENCH_WORKER_PORT: String(port) });
  onParentStop(() => stopWorkers(forked));
  announceReady(`http://127.0.0.1:${port}`);
} else if (isBenchWorker()) {
  server.listen(Number(process.env.BENCH_WORKER_PORT), "127.0.0.1", () => {
    stopWithPrimary(close);
    workerReady();
  });
} else {
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    onParentStop(close);
    announceReady(`http://127.0.0.1:${port}`);
  });
}
