import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "./app";
import { loadConfig } from "./config";
import { connectDatabase } from "./db/client";
import { freePort } from "./lib/free-port";
import { createConfirmedUser } from "./seed/seed";
import { counterDrift } from "./test/counters";
import { multipart, ORIGIN, sessionCookie } from "./test/harness";
import { startServerProcess, waitHealthy, type ServerProcess } from "./test/server-process";
import type { Manifest } from "../../scripts/backup";

/**
 * The restore drill of docs/deployment.md on the bundled PostgreSQL: a real Hearth process taking
 * writes is backed up with `npm run backup`, restored with `npm run restore` into a new DATA_DIR,
 * and a second Hearth process started on the copy must hold exactly what the backup says.
 */
const root = mkdtempSync(path.join(os.tmpdir(), "hearth-backup-"));
// Run as root, the bundled cluster belongs to the "postgres" OS user, which must reach the DATA_DIRs.
chmodSync(root, 0o711);
const dataA = path.join(root, "data-a");
const dataB = path.join(root, "data-b");
const backups = path.join(root, "backups");
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.child.kill("SIGTERM");
    await s.exited;
  }
  rmSync(root, { recursive: true, force: true });
});

/** `npm run backup` / `npm run restore`, as an operator runs them. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/backup.ts", ...args], {
      env: { ...process.env, LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** The bundled PostgreSQL a running Hearth started in a DATA_DIR. */
function bundledUrl(dataDir: string): string {
  const port = readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[3];
  const password = readFileSync(path.join(dataDir, "postgres-password"), "utf8").trim();
  return `postgres://hearth:${encodeURIComponent(password)}@127.0.0.1:${port}/hearth`;
}

async function startOn(dataDir: string) {
  const port = await freePort();
  const server = startServerProcess({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: ORIGIN });
  servers.push(server);
  await waitHealthy(port).catch((err) => {
    throw new Error(`${(err as Error).message}: ${server.output()}`);
  });
  return { server, base: `http://127.0.0.1:${port}` };
}

function client(base: string) {
  const send = async (method: string, url: string, body?: unknown, cookie?: string) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        origin: ORIGIN,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(cookie ? { cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as any };
  };
  return {
    get: (url: string, cookie?: string) => send("GET", url, undefined, cookie),
    post: (url: string, body: unknown, cookie?: string) => send("POST", url, body, cookie),
    signIn: async (email: string, password: string) => {
      const res = await fetch(`${base}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      return { status: res.status, cookie: res.ok ? sessionCookie(Object.fromEntries(res.headers)) : "" };
    },
  };
}

const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

describe("backup and restore drill (bundled PostgreSQL)", () => {
  it(
    "backs up a running server under writes, restores into a fresh DATA_DIR, and the copy holds the same data and media",
    { timeout: 120_000 },
    async () => {
      // A running Hearth with users, a community, posts, likes, a comment and an uploaded image.
      const a = await startOn(dataA);
      const httpA = client(a.base);
      const dbA = connectDatabase(bundledUrl(dataA), { max: 2 });
      const password = "drill-password-1";
      const owner = { email: "owner@drill.test", name: "Drill Owner", username: "drill_owner", password };
      const member = { email: "member@drill.test", name: "Drill Member", username: "drill_member", password };
      await createConfirmedUser(dbA.db, owner);
      await createConfirmedUser(dbA.db, member);
      const ownerCookie = (await httpA.signIn(owner.email, password)).cookie;
      const memberCookie = (await httpA.signIn(member.email, password)).cookie;
      const community = (await httpA.post("/api/communities", { name: "Backup Drill" }, ownerCookie)).body;
      expect(community.id).toBeTruthy();
      expect((await httpA.post(`/api/communities/${community.id}/join`, {}, memberCookie)).status).toBe(200);

      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#2a9d8f" } })
        .png()
        .toBuffer();
      const form = multipart("drill.png", "image/png", png);
      const uploaded = await fetch(`${a.base}/api/communities/${community.id}/media`, {
        method: "POST",
        headers: { origin: ORIGIN, cookie: ownerCookie, "content-type": form.contentType },
        body: form.payload,
      });
      expect(uploaded.status).toBe(200);
      const image = (await uploaded.json()) as { url: string; variants: { medium: string; thumbnail: string } };
      const post = await httpA.post(
        `/api/communities/${community.id}/posts`,
        {
          type: "image",
          content: "The post that must survive a restore",
          images: [{ url: image.url, medium: image.variants.medium, thumbnail: image.variants.thumbnail }],
        },
        ownerCookie,
      );
      expect(post.status).toBe(201);
      const postId = post.body.id as string;
      expect((await httpA.post(`/api/posts/${postId}/like`, {}, memberCookie)).status).toBe(200);
      const comment = await httpA.post(`/api/posts/${postId}/comments`, { content: "Kept too" }, memberCookie);
      expect(comment.status).toBe(201);
      const imageBytes = Buffer.from(await (await fetch(`${a.base}${image.url}`)).arrayBuffer());
      expect(imageBytes.length).toBeGreaterThan(0);

      // Writes keep coming while the backup runs.
      let writing = true;
      let acknowledged = 0;
      const writer = (async () => {
        for (let i = 0; writing; i++) {
          const p = await httpA.post(`/api/communities/${community.id}/posts`, { content: `Busy ${i}` }, memberCookie);
          if (p.status === 201) {
            acknowledged++;
            await httpA.post(`/api/posts/${p.body.id}/like`, {}, ownerCookie);
            await httpA.post(`/api/posts/${p.body.id}/comments`, { content: `Reply ${i}` }, ownerCookie);
          }
        }
      })();
      await new Promise((r) => setTimeout(r, 300));
      const postsBefore = acknowledged;
      const made = await cli(["backup", backups], { DATA_DIR: dataA });
      const postsAfter = acknowledged;
      writing = false;
      await writer;
      expect(made.code, made.output).toBe(0);
      const [name] = readdirSync(backups);
      expect(name).toMatch(/^hearth-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
      const backupDir = path.join(backups, name);
      const manifest = JSON.parse(readFileSync(path.join(backupDir, "manifest.json"), "utf8")) as Manifest;
      // One snapshot taken during the writes: between what was acknowledged before and after.
      const busyPosts = manifest.database.tables.posts.rows - 1;
      expect(busyPosts).toBeGreaterThanOrEqual(postsBefore);
      expect(busyPosts).toBeLessThanOrEqual(postsAfter);
      expect(manifest.database.tables.user.rows).toBe(2);
      expect(manifest.media.storage).toBe("disk");
      expect(manifest.media.missing).toEqual([]);
      const imageKey = image.url.replace(/^\/media\//, "");
      expect(manifest.media.files[imageKey].sha256).toBe(sha256(imageBytes));
      await dbA.close();

      // A backup never goes where Hearth serves or keeps files.
      const refused = await cli(["backup", path.join(dataA, "media", "backups")], { DATA_DIR: dataA });
      expect(refused.code, refused.output).toBe(2);

      // Restore into a fresh DATA_DIR; a second restore over it is refused without --force.
      const restored = await cli(["restore", backupDir], { DATA_DIR: dataB });
      expect(restored.code, restored.output).toBe(0);
      const again = await cli(["restore", backupDir], { DATA_DIR: dataB });
      expect(again.code).toBe(2);
      expect(again.output).toMatch(/not empty.*--force/);

      // The copy, served by a new Hearth process.
      const b = await startOn(dataB);
      const httpB = client(b.base);
      const dbB = connectDatabase(bundledUrl(dataB), { max: 2 });
      try {
        // The new process adds its schedules' due work (the reminder sweep runs every minute), and
        // finishes the jobs the backup caught queued: a like's or a comment's notification, which
        // writes its realtime event and may create the recipient's settings row (the digest's due time).
        const grows = new Set([
          "jobs",
          "job_schedules",
          "notifications",
          "realtime_events",
          "user_notification_settings",
        ]);
        const counts: Record<string, { backup: number; restored: number }> = {};
        for (const [table, entry] of Object.entries(manifest.database.tables)) {
          const { n } = (await dbB.pool.query(`SELECT count(*)::int AS n FROM public."${table}"`)).rows[0];
          counts[table] = { backup: entry.rows, restored: n };
          if (grows.has(table)) expect(n, table).toBeGreaterThanOrEqual(entry.rows);
          else expect(n, table).toBe(entry.rows);
        }
        // Every realtime event the copy gained is one of those notifications' (one per in-app notification).
        const gained = (table: string) => counts[table].restored - counts[table].backup;
        expect(gained("realtime_events")).toBeLessThanOrEqual(gained("notifications"));
        expect(await counterDrift(dbB.pool)).toEqual({});
        for (const [key, file] of Object.entries(manifest.media.files)) {
          expect(sha256(readFileSync(path.join(dataB, "media", key))), key).toBe(file.sha256);
        }

        const signIn = await httpB.signIn(member.email, password);
        expect(signIn.status).toBe(200);
        // Sessions made before the backup still work: the secret came with it.
        expect((await httpB.get("/api/me", memberCookie)).status).toBe(200);
        const readBack = await httpB.get(`/api/posts/${postId}`, signIn.cookie);
        expect(readBack.status).toBe(200);
        expect(readBack.body.post.content).toBe("The post that must survive a restore");
        expect(readBack.body.post.likes_count).toBe(1);
        const media = await fetch(`${b.base}${image.url}`);
        expect(media.status).toBe(200);
        expect(Buffer.from(await media.arrayBuffer()).equals(imageBytes)).toBe(true);
        // Writes work on the copy (sequences and counters carried over).
        const fresh = await httpB.post(`/api/communities/${community.id}/posts`, { content: "After" }, signIn.cookie);
        expect(fresh.status).toBe(201);
      } finally {
        await dbB.close();
      }
    },
  );

  it("serves no backup, secret or database file over HTTP, whatever the path", { timeout: 60_000 }, async () => {
    // Laid out as in production: the built web app, DATA_DIR and the backups side by side.
    const backupDir = path.join(backups, readdirSync(backups)[0]);
    const web = path.join(root, "web");
    mkdirSync(web, { recursive: true });
    const shell = "<!doctype html><title>Hearth</title><div id=root></div>";
    writeFileSync(path.join(web, "index.html"), shell);
    const database = connectDatabase(bundledUrl(dataB), { max: 2 });
    const config = loadConfig(
      { NODE_ENV: "test", LOG_LEVEL: "silent" },
      {
        dataDir: dataB,
        publicUrl: ORIGIN,
        authSecret: randomBytes(32).toString("hex"),
        serveWeb: true,
        seedDemo: false,
      },
    );
    const app = await buildApp({ config, database, logger: false, startWorker: false, webDist: web });
    try {
      const name = path.basename(backupDir);
      const secrets = [
        readFileSync(path.join(backupDir, "manifest.json"), "utf8").slice(0, 40),
        readFileSync(path.join(dataB, "auth-secret"), "utf8").trim(),
        readFileSync(path.join(dataB, "postgres-password"), "utf8").trim(),
      ];
      const paths = [
        `/backups/${name}/manifest.json`,
        `/../backups/${name}/manifest.json`,
        `/%2e%2e/backups/${name}/manifest.json`,
        `/..%2fbackups%2f${name}%2fmanifest.json`,
        `/media/../../backups/${name}/manifest.json`,
        `/media/..%2f..%2fbackups%2f${name}%2fmanifest.json`,
        `/media/%2e%2e/%2e%2e/backups/${name}/auth-secret`,
        `/media/../auth-secret`,
        `/media/..%2fauth-secret`,
        `/media/..%2fpostgres-password`,
        `/media/..%2fpostgres%2fPG_VERSION`,
        `/data-b/auth-secret`,
        `/%2e%2e/data-b/auth-secret`,
        `/assets/..%2f..%2fdata-b%2fauth-secret`,
      ];
      for (const url of paths) {
        const res = await app.inject({ method: "GET", url });
        for (const secret of secrets) expect(res.body, url).not.toContain(secret);
        // A missing file answers 404; any other path is a page of the app (its shell), never a file.
        if (res.statusCode !== 404)
          expect({ url, status: res.statusCode, body: res.body }).toEqual({ url, status: 200, body: shell });
        if (url.startsWith("/media/..%2f") || url.startsWith("/assets/")) expect(res.statusCode, url).toBe(404);
      }
    } finally {
      await app.close();
      await database.close();
    }
  });
});
