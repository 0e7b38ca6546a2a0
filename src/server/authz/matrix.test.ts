/**
 * The authorization matrix (issue 9, checklist A1, A2, A3, A5): every operation of the OpenAPI
 * document (and the routes left out of it) × every actor × a public and a private community, each
 * cell on a world of its own, against the expected table in expected.ts. For every cell: the
 * status; for refusals also the message, that nothing of the world shows in the answer, that a
 * private community's refusals answer exactly as an id that does not exist, and that nothing
 * changed; for allowed answers, what they must show (cases.ts). docs/authorization.md explains it.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, multipart, ORIGIN, type TestApp } from "#server/test/harness";
import { CASES, type CaseContext, type Req, type Res } from "./cases";
import { DEFAULT_MESSAGES, EXPECTED, operationOf, type Entry } from "./expected";
import {
  ACTORS,
  createUsers,
  createWorlds,
  ghostOf,
  worldState,
  type Actor,
  type Users,
  type Visibility,
  type World,
} from "./fixtures";

const OUTSIDERS = new Set<Actor>(["anonymous", "nonmember", "other", "left", "banned"]);
const STATUS_OF_TOKEN: Record<string, number> = { gate: 403, ban: 403 };
const CODE_OF_STATUS: Record<number, string> = { 401: "UNAUTHORIZED", 404: "NOT_FOUND", 409: "CONFLICT" };

type Cell = { actor: Actor; visibility: Visibility; token: string; scoped: boolean };

/** The cells of an entry: ten per row (a missing token becomes "?", which no answer matches). */
function cellsOf(entry: Entry): Cell[] {
  const rows: [Visibility, string, boolean][] = entry.any
    ? [["public", entry.any, false]]
    : [
        ["public", entry.public ?? "", true],
        ["private", entry.private ?? "", true],
      ];
  return rows.flatMap(([visibility, row, scoped]) => {
    const tokens = row.trim().split(/\s+/);
    return ACTORS.map((actor, i) => ({ actor, visibility, token: tokens[i] ?? "?", scoped }));
  });
}

let t: TestApp;
let users: Users;
let ctx: CaseContext;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  users = await createUsers(t);
  const png = await sharp({ create: { width: 32, height: 16, channels: 3, background: "#b45309" } })
    .png()
    .toBuffer();
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4"/></svg>');
  ctx = { t, users, png, svg };
  // Streams need a real connection (inject() waits for the end of a response).
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t?.close());

const cookieOf = (actor: Actor) => (actor === "anonymous" ? undefined : (users[actor].cookie ?? undefined));

function parse(status: number, text: string): Res {
  try {
    return { status, text, json: text ? JSON.parse(text) : null };
  } catch {
    return { status, text, json: null };
  }
}

/** A stream's answer: its status and, when it was refused, its body; an open stream is closed at once. */
function openStream(url: string, cookie: string | undefined): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}${url}`, {
      agent: false,
      headers: { accept: "text/event-stream", origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      if (res.statusCode === 200) {
        res.destroy();
        return resolve(parse(200, ""));
      }
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve(parse(res.statusCode ?? 0, text)));
    });
  });
}

async function send(req: Req, actor: Actor): Promise<Res> {
  const cookie = cookieOf(actor);
  if (req.stream) return openStream(req.url, cookie);
  const headers: Record<string, string> = { origin: ORIGIN, ...(cookie ? { cookie } : {}) };
  let payload: string | Buffer | undefined;
  if (req.file) {
    const body = multipart(req.file.name, req.file.type, req.file.data, req.file.fields);
    headers["content-type"] = body.contentType;
    payload = body.payload;
  } else if (req.body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(req.body);
  }
  const res = await t.app.inject({
    method: req.method,
    url: req.url,
    headers,
    payload,
    ...(req.remoteAddress ? { remoteAddress: req.remoteAddress } : {}),
  });
  return parse(res.statusCode, res.body);
}

async function runCell(key: string, entry: Entry, cell: Cell, w: World) {
  const c = CASES[key];
  const where = `${key} as ${cell.actor} (${cell.scoped ? `${cell.visibility} community` : "no community"})`;
  const [rawStatus, label = null] = cell.token.split(":");
  const status = STATUS_OF_TOKEN[rawStatus] ?? Number(rawStatus);
  const denied = !(status >= 200 && status < 300);
  const actorId = cell.actor === "anonymous" ? null : users[cell.actor].id;

  await c.prepare?.(w, ctx);
  const before = denied ? await worldState(t, w, actorId) : null;
  const res = await send(c.request(w, cell.actor, ctx), cell.actor);
  expect(res.status, `${where}: status (${res.text.slice(0, 200)})`).toBe(status);

  if (!denied) {
    await c.allowed?.(res, { w, actor: cell.actor, label, c: ctx });
    return;
  }
  const message = entry.messages?.[cell.token] ?? DEFAULT_MESSAGES[cell.token] ?? DEFAULT_MESSAGES[rawStatus];
  if (message && !(rawStatus === "404")) expect(res.json?.error?.message, `${where}: message`).toBe(message);
  if (rawStatus === "gate") expect(res.json?.error?.code, `${where}: the private gate`).toBe("PRIVATE_COMMUNITY");
  else if (rawStatus === "403") expect(res.json?.error?.code, `${where}: code`).toBe("FORBIDDEN");
  else if (CODE_OF_STATUS[status]) expect(res.json?.error?.code, `${where}: code`).toBe(CODE_OF_STATUS[status]);
  // Nothing of the world (names, texts, titles: all carry its token) in a refusal.
  expect(res.text, `${where}: the refusal shows the world's content`).not.toContain(w.token);
  // A private community's refusals, and every not-found, answer exactly like an id that does not
  // exist; the private page (gate) and a banned user's refusal (ban) say what they are on purpose.
  const privateOutsider = cell.scoped && cell.visibility === "private" && OUTSIDERS.has(cell.actor);
  if (rawStatus === "404" || (privateOutsider && rawStatus !== "gate" && rawStatus !== "ban")) {
    const ghost = await send(c.request(ghostOf(w), cell.actor, ctx), cell.actor);
    expect({ status: res.status, body: res.json }, `${where}: differs from the answer for a missing id`).toEqual({
      status: ghost.status,
      body: ghost.json,
    });
  }
  expect(await worldState(t, w, actorId), `${where}: a refused request changed something`).toBe(before);
}

describe("the expected table", () => {
  it("has an entry for every API operation, and every entry is a route that exists", async () => {
    const live = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json() as {
      paths: Record<string, object>;
    };
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
    const documented = JSON.parse(readFileSync(path.join(root, "docs/openapi.json"), "utf8")) as typeof live;
    const operations = (doc: typeof live) =>
      Object.entries(doc.paths).flatMap(([p, methods]) =>
        Object.keys(methods)
          .filter((m) => ["get", "post", "put", "patch", "delete"].includes(m))
          .map((m) => `${m.toUpperCase()} ${p}`),
      );
    const served = new Set(operations(live));
    const all = new Set([...served, ...operations(documented)]);
    const listed = new Set(
      Object.entries(EXPECTED)
        .filter(([, e]) => !e.hidden)
        .map(([k]) => operationOf(k)),
    );
    expect(
      [...all].filter((op) => !listed.has(op)),
      "API operations missing from the expected table",
    ).toEqual([]);
    expect(
      [...listed].filter((op) => !served.has(op)),
      "table entries whose route no longer exists",
    ).toEqual([]);
    const gone: string[] = [];
    for (const key of Object.keys(EXPECTED).filter((k) => EXPECTED[k].hidden)) {
      const [method, url] = operationOf(key).split(" ");
      const res = await t.app.inject({ method: method as "GET", url: url.replace(/\{[^}]+\}/g, "x") });
      if (res.statusCode === 404 && /^No route /.test(res.json()?.error?.message ?? "")) gone.push(key);
    }
    expect(gone, "hidden table entries whose route no longer exists").toEqual([]);
  });

  it("has ten valid tokens per row and a request for every entry", () => {
    const problems: string[] = [];
    for (const [key, entry] of Object.entries(EXPECTED)) {
      if (!CASES[key]) problems.push(`${key}: no request in cases.ts`);
      const rows = entry.any ? [entry.any] : [entry.public, entry.private];
      if (entry.any && (entry.public || entry.private)) problems.push(`${key}: both "any" and per-visibility rows`);
      for (const row of rows) {
        const tokens = (row ?? "").trim().split(/\s+/);
        if (tokens.length !== ACTORS.length) problems.push(`${key}: ${tokens.length} tokens in "${row}"`);
        for (const token of tokens) {
          if (!/^(\d{3}(:[a-z]+)?|gate|ban)$/.test(token)) problems.push(`${key}: bad token "${token}"`);
        }
      }
    }
    for (const key of Object.keys(CASES)) if (!EXPECTED[key]) problems.push(`${key}: a request with no expectation`);
    expect(problems).toEqual([]);
  });
});

for (const [key, entry] of Object.entries(EXPECTED)) {
  if (!CASES[key]) continue;
  describe(key, () => {
    const cells = cellsOf(entry);
    let worlds: World[] = [];
    beforeAll(async () => {
      worlds = await createWorlds(t, users, cells);
    });
    cells.forEach((cell, i) => {
      it(`${cell.actor}${cell.scoped ? ` · ${cell.visibility}` : ""}`, () => runCell(key, entry, cell, worlds[i]));
    });
  });
}
