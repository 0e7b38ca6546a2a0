/**
 * Issue "Uploads": the throughput of 1 MB photo uploads through POST /api/upload (the JPEG decoded
 * and re-encoded into three WebP variants, stored on disk) against a bare node:http server that only
 * receives the same bytes; and the Hearth process's resident memory while a 500 MB video streams to
 * disk, with 501 MB ones (over the limit) that must be refused while they stream.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import sharp from "sharp";
import { IMAGE_VARIANTS } from "../../src/shared/limits";
import type { UploadResult } from "../../src/server/lib/uploads";
import { MB } from "../../src/shared/uploads";
import { databaseUrl, serverMemory, startBaseline, startHearth, type ChildServer } from "../lib/children";
import { cpuTree, cpuWindow, type CpuShare } from "../lib/cpu";
import { signIn } from "../lib/hearth-client";
import { compare, median } from "../lib/load";
import { TMP_DIR } from "../lib/paths";
import type { ResultRow, Scenario } from "../lib/scenario";
import { cores, int, pct, sleep } from "../lib/format";

/** Concurrent uploads measured: the server's image pool takes two at a time on this 2-core machine. */
const CONCURRENCIES = [1, 2, 4];
const PHOTO = { width: 3000, height: 2000, quality: 85, minBytes: 0.95 * MB, maxBytes: 1.05 * MB };
const VIDEO_BYTES = 500 * MB;
const OVER_LIMIT_BYTES = 501 * MB;
/**
 * A chunked body that would go on well past the limit: where the server stops reading shows whether
 * it refuses while streaming (501 MB ends too close to the limit for that: the last megabyte fits in
 * the sockets' buffers).
 */
const RUNAWAY_BYTES = 1000 * MB;
const RSS_GROWTH_GOAL_MB = 100;
const SAMPLE_MS = 50;
const IDLE_BEFORE_MS = 2000;
const IDLE_AFTER_MS = 3000;
/** Bytes per write of the streamed video (the generated content repeats a random block of this size). */
const CHUNK_BYTES = 256 * 1024;
const STREAM_TIMEOUT_MS = 180_000;
const BREAKDOWN_SAMPLES = 5;
/** An MP4 `ftyp` box (brand mp42, compatible mp42 and isom): what file-type recognises as video/mp4. */
const FTYP = Buffer.from("00000018667479706d703432000000006d70343269736f6d", "hex");

const mb = (bytes: number) => bytes / MB;
const mb1 = (bytes: number) => mb(bytes).toFixed(1);
/** Seconds, or milliseconds below one second. */
const dur = (seconds: number) => (seconds < 1 ? `${(seconds * 1000).toFixed(0)} ms` : `${seconds.toFixed(2)} s`);

/** mulberry32: the same pseudo-random bytes on every run. */
function prng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A photo-like JPEG that does not compress away: colour gradients, large soft blobs and a finer
 * texture (random fields upscaled with a cubic kernel) and pixel noise. The strength of the texture
 * and noise is searched until the file is about 1 MB; the result is the same on every run.
 */
async function makePhoto(): Promise<{ jpeg: Buffer; amplitude: number; ms: number }> {
  const t0 = performance.now();
  const { width: W, height: H } = PHOTO;
  const rand = prng(20_240_601);
  const field = async (w: number, h: number) => {
    const small = Buffer.alloc(w * h * 3);
    for (let i = 0; i < small.length; i++) small[i] = Math.floor(rand() * 256);
    return sharp(small, { raw: { width: w, height: h, channels: 3 } })
      .resize(W, H, { kernel: "cubic" })
      .raw()
      .toBuffer();
  };
  const blobs = await field(150, 100);
  const texture = await field(600, 400);
  const noise = new Int8Array(W * H * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(rand() * 256) - 128;
  const render = (amplitude: number) => {
    const raw = Buffer.alloc(W * H * 3);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = (y * W + x) * 3;
        const gradient = [(x / W) * 60, (y / H) * 60, ((x + y) / (W + H)) * 60];
        for (let c = 0; c < 3; c++) {
          const v =
            gradient[c] +
            blobs[i + c] * 0.45 +
            ((texture[i + c] - 128) * amplitude) / 64 +
            (noise[i + c] * amplitude) / 256;
          raw[i + c] = v < 0 ? 0 : v > 255 ? 255 : v;
        }
      }
    }
    return sharp(raw, { raw: { width: W, height: H, channels: 3 } })
      .jpeg({ quality: PHOTO.quality })
      .toBuffer();
  };
  let lo = 0;
  let hi = 32;
  for (let i = 0; i < 14; i++) {
    const amplitude = (lo + hi) / 2;
    const jpeg = await render(amplitude);
    if (jpeg.length < PHOTO.minBytes) lo = amplitude;
    else if (jpeg.length > PHOTO.maxBytes) hi = amplitude;
    else return { jpeg, amplitude, ms: performance.now() - t0 };
  }
  throw new Error(`no texture strength gave a JPEG of ${mb1(PHOTO.minBytes)}–${mb1(PHOTO.maxBytes)} MB`);
}

/** A multipart body's parts around the file: the fields first (as the route requires), then the file's headers. */
function multipart(fields: [string, string][], file: { name: string; type: string }) {
  const boundary = `----HearthBench${randomBytes(12).toString("hex")}`;
  const head = Buffer.from(
    fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join("") +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
      `Content-Type: ${file.type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { head, tail, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Every file under `dir`, relative to it. */
function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** CPU seconds used so far by the server's process tree (PostgreSQL included). */
const treeSeconds = (pid: number) => [...cpuTree(pid).values()].reduce((a, p) => a + p.seconds, 0);

/**
 * Waits until the server's process tree is idle (under an eighth of a core for half a second): the
 * uploads autocannon left in flight when it stopped are still being decoded and encoded, and must
 * not land in the next measurement.
 */
async function waitIdle(pid: number, maxMs = 30_000): Promise<void> {
  const t0 = performance.now();
  let previous = treeSeconds(pid);
  let quiet = 0;
  while (performance.now() - t0 < maxMs) {
    await sleep(250);
    const now = treeSeconds(pid);
    quiet = now - previous < 0.03 ? quiet + 1 : 0;
    previous = now;
    if (quiet >= 2) return;
  }
  console.error(`  the server was still busy ${maxMs / 1000} s after the run`);
}

/** VmRSS and VmHWM (peak since start or since the last reset) of one process, in bytes. */
function procMemory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** Resets a process's peak-RSS mark (Linux: "5" to clear_refs); false when not allowed. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

type Sample = {
  t: number;
  rss: number;
  clientRss: number;
  heapUsed?: number;
  external?: number;
  arrayBuffers?: number;
};

/**
 * Samples the server process's RSS from /proc every SAMPLE_MS, and (when the previous answer came
 * back) its heapUsed, external and arrayBuffers over IPC; also this harness's own RSS.
 */
function memorySampler(server: ChildServer) {
  const samples: Sample[] = [];
  let asking = false;
  const tick = () => {
    let rss = Number.NaN;
    try {
      rss = procMemory(server.pid).rss;
    } catch {
      // The server is gone (a failed run is stopping it).
    }
    const s: Sample = { t: performance.now(), rss, clientRss: process.memoryUsage.rss() };
    samples.push(s);
    if (asking) return;
    asking = true;
    serverMemory(server)
      .then(
        (m) => Object.assign(s, { heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers }),
        () => {},
      )
      .finally(() => (asking = false));
  };
  tick();
  const timer = setInterval(tick, SAMPLE_MS);
  return {
    samples,
    stop: async () => {
      clearInterval(timer);
      while (asking) await sleep(10);
    },
  };
}

type StreamResult = {
  status: number;
  body: string;
  /** From the first byte sent to the end of the answer. */
  seconds: number;
  /** From the first byte sent to the answer's headers. */
  answerSeconds: number;
  /** Request body bytes handed to the socket when the answer's headers arrived. */
  sentAtAnswer: number;
  /** Request body bytes handed to the socket in all. */
  sentTotal: number;
  bodyBytes: number;
  /** Why writing stopped before the end of the body, when it did. */
  writeError?: string;
  startedAt: number;
  endedAt: number;
};

/**
 * POSTs a multipart upload whose file is `fileBytes` generated on the fly (the ftyp box, then a
 * random block repeated): nothing bigger than one block is ever held. With `chunked` no
 * Content-Length is sent (Transfer-Encoding: chunked), so the server can only find the size by
 * reading. Writing goes on after an early answer until the server stops reading or closes.
 */
async function streamUpload(input: {
  url: string;
  cookie: string;
  communityId: string;
  fileBytes: number;
  chunked: boolean;
}): Promise<StreamResult> {
  const parts = multipart(
    [
      ["communityId", input.communityId],
      ["uploadType", "posts"],
    ],
    { name: "lesson.mp4", type: "video/mp4" },
  );
  const bodyBytes = parts.head.length + input.fileBytes + parts.tail.length;
  const block = randomBytes(CHUNK_BYTES);
  const first = Buffer.from(block);
  FTYP.copy(first, 0);
  const req = http.request(new URL("/api/upload", input.url), {
    method: "POST",
    agent: false,
    headers: {
      cookie: input.cookie,
      origin: input.url,
      "content-type": parts.contentType,
      ...(input.chunked ? {} : { "content-length": String(bodyBytes) }),
    },
  });
  let flushed = 0;
  let writeError: Error | undefined;
  req.on("error", (err) => (writeError ??= err));
  let closedAt = 0;
  let sentAtClose = 0;
  const closed = new Promise<void>((r) =>
    req.once("close", () => {
      closedAt = performance.now();
      sentAtClose = flushed;
      r();
    }),
  );
  const answered = new Promise<{ res: http.IncomingMessage; at: number; sent: number }>((resolve) =>
    req.once("response", (res) => resolve({ res, at: performance.now(), sent: flushed })),
  );
  const timer = setTimeout(() => req.destroy(new Error("timed out")), STREAM_TIMEOUT_MS);
  const startedAt = performance.now();

  const write = (chunk: Buffer) =>
    req.write(chunk, (err) => {
      if (!err) flushed += chunk.length;
    });
  const writing = (async () => {
    if (!write(parts.head)) await Promise.race([new Promise((r) => req.once("drain", r)), closed]);
    for (let left = input.fileBytes, i = 0; left > 0; i++) {
      if (writeError || req.destroyed) return;
      const chunk = (i === 0 ? first : block).subarray(0, Math.min(CHUNK_BYTES, left));
      left -= chunk.length;
      if (!write(chunk)) await Promise.race([new Promise((r) => req.once("drain", r)), closed]);
    }
    if (writeError || req.destroyed) return;
    await new Promise<void>((r) => req.end(parts.tail, () => r()));
  })();

  const errorCode = () => (writeError ? ((writeError as NodeJS.ErrnoException).code ?? writeError.message) : undefined);
  try {
    const answer = await Promise.race([answered, closed.then(() => null)]);
    if (!answer) {
      // The server closed the connection and the client's next write failed before the answer was
      // read (an early answer races the client's writes): status 0, nothing read.
      return {
        status: 0,
        body: "",
        seconds: (closedAt - startedAt) / 1000,
        answerSeconds: (closedAt - startedAt) / 1000,
        sentAtAnswer: sentAtClose,
        sentTotal: sentAtClose,
        bodyBytes,
        writeError: errorCode() ?? "connection closed",
        startedAt,
        endedAt: closedAt,
      };
    }
    const chunks: Buffer[] = [];
    try {
      for await (const c of answer.res) chunks.push(c as Buffer);
    } catch (err) {
      if (!chunks.length) throw err;
    }
    const endedAt = performance.now();
    await Promise.race([writing, closed]);
    return {
      status: answer.res.statusCode ?? 0,
      body: Buffer.concat(chunks).toString(),
      seconds: (endedAt - startedAt) / 1000,
      answerSeconds: (answer.at - startedAt) / 1000,
      sentAtAnswer: answer.sent,
      sentTotal: flushed,
      bodyBytes,
      writeError: errorCode(),
      startedAt,
      endedAt,
    };
  } finally {
    clearTimeout(timer);
    req.destroy();
  }
}

type MemoryRun = {
  result: StreamResult;
  baseline: number;
  /** Highest sampled RSS from the start of the upload to the end of the pause after it. */
  sampledPeak: number;
  /** The kernel's peak-RSS mark (VmHWM) over the same time, when it could be reset before. */
  hwmPeak?: number;
  peak: number;
  growth: number;
  after: number;
  heap: { baseline: number; peak: number };
  external: { baseline: number; peak: number };
  arrayBuffers: { baseline: number; peak: number };
  /** RSS of the sample nearest the middle of the upload, and of the last one before its answer ended. */
  middle: number;
  end: number;
  client: { baseline: number; peak: number };
  samples: number;
  cpu: CpuShare;
};

/** One streamed upload with the server's memory sampled before, during and after it. */
async function memoryRun(server: ChildServer, upload: () => Promise<StreamResult>): Promise<MemoryRun> {
  const sampler = memorySampler(server);
  await sleep(IDLE_BEFORE_MS);
  const hwmReset = resetPeak(server.pid);
  const endCpu = cpuWindow(server.pid);
  let result: StreamResult;
  let cpu: CpuShare;
  try {
    result = await upload();
    cpu = endCpu();
    await sleep(IDLE_AFTER_MS);
  } finally {
    await sampler.stop();
  }
  const hwm = procMemory(server.pid).hwm;
  const before = sampler.samples.filter((s) => s.t < result.startedAt);
  const during = sampler.samples.filter((s) => s.t >= result.startedAt);
  const after = sampler.samples.filter((s) => s.t > result.endedAt + IDLE_AFTER_MS - 1000);
  const of = (xs: Sample[], k: keyof Sample) =>
    xs.map((s) => s[k]).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  const baseline = median(of(before, "rss"));
  const nearest = (t: number) =>
    during.filter((s) => s.t <= t).at(-1) ?? during[0] ?? sampler.samples[sampler.samples.length - 1];
  const sampledPeak = Math.max(...of(during, "rss"));
  const peak = hwmReset ? Math.max(hwm, sampledPeak) : sampledPeak;
  const range = (k: "heapUsed" | "external" | "arrayBuffers") => ({
    baseline: median(of(before, k)),
    peak: Math.max(...of(during, k)),
  });
  return {
    result,
    baseline,
    sampledPeak,
    hwmPeak: hwmReset ? hwm : undefined,
    peak,
    growth: peak - baseline,
    after: median(of(after, "rss")),
    heap: range("heapUsed"),
    external: range("external"),
    arrayBuffers: range("arrayBuffers"),
    middle: nearest((result.startedAt + result.endedAt) / 2).rss,
    end: nearest(result.endedAt).rss,
    client: { baseline: median(of(before, "clientRss")), peak: Math.max(...of(during, "clientRss")) },
    samples: sampler.samples.length,
    cpu,
  };
}

const memoryText = (m: MemoryRun) =>
  `RSS ${mb1(m.baseline)} MB before, peak ${mb1(m.peak)} MB (sampled ${mb1(m.sampledPeak)} MB` +
  (m.hwmPeak !== undefined ? `, kernel peak mark ${mb1(m.hwmPeak)} MB` : "") +
  `), so ${m.growth < 0 ? "−" : "+"}${mb1(Math.abs(m.growth))} MB; ${mb1(m.middle)} MB halfway through the upload, ${mb1(m.end)} MB at its ` +
  `answer, ${mb1(m.after)} MB at the end of the ${IDLE_AFTER_MS / 1000} s pause after; heapUsed ` +
  `${mb1(m.heap.baseline)} → peak ${mb1(m.heap.peak)} MB, external ${mb1(m.external.baseline)} → ` +
  `${mb1(m.external.peak)} MB, arrayBuffers ${mb1(m.arrayBuffers.baseline)} → ${mb1(m.arrayBuffers.peak)} MB ` +
  `(${m.samples} samples); ` +
  // A few milliseconds are too short to count CPU ticks in.
  (m.result.answerSeconds >= 0.5
    ? `cores during the upload: server ${m.cpu.server.toFixed(2)}, harness ${m.cpu.harness.toFixed(2)}, ` +
      `others ${m.cpu.others.toFixed(2)}; `
    : "") +
  `the client's own RSS ${mb1(m.client.baseline)} MB before, peak ${mb1(m.client.peak)} MB`;

/** The kernel's largest TCP send and receive buffers, as text. */
function socketBuffers(): string {
  const max = (file: string) => {
    try {
      return `${mb1(Number(readFileSync(file, "utf8").trim().split(/\s+/)[2]))} MB`;
    } catch {
      return "?";
    }
  };
  return `${max("/proc/sys/net/ipv4/tcp_wmem")} / ${max("/proc/sys/net/ipv4/tcp_rmem")}`;
}

/** Median wall and CPU time of `fn` in this process (CPU includes libvips' and libuv's threads). */
async function timeIt(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  await fn();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < BREAKDOWN_SAMPLES; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    walls.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1000);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

/**
 * The server's image work, step by step, in this process with the server's settings (libvips one
 * thread per image, no cache) and the same sharp pipelines as src/server/lib/images.ts, and the
 * four disk writes of one upload (fsync on close, renamed into place) in a temporary directory.
 */
async function imageBreakdown(jpeg: Buffer) {
  sharp.concurrency(1);
  sharp.cache(false);
  const base = () => sharp(jpeg, { limitInputPixels: 50_000_000, failOn: "error", animated: false }).rotate();
  const { large, medium, thumbnail } = IMAGE_VARIANTS;
  // Each variant's decode and resize alone (to raw pixels), and with its WebP encode, as the server does it.
  const resizedOriginal = () => base().resize(large.width, large.height, { fit: "inside", withoutEnlargement: true });
  const resizedMedium = () => base().resize(medium.width, medium.height, { fit: "inside", withoutEnlargement: true });
  const resizedThumb = () => base().resize(thumbnail.width, thumbnail.height, { fit: "cover" });
  const original = () => resizedOriginal().webp({ quality: large.quality }).toBuffer();
  const mediumV = () => resizedMedium().webp({ quality: medium.quality }).toBuffer();
  const thumb = () => resizedThumb().webp({ quality: thumbnail.quality }).toBuffer();
  const outputs = { original: await original(), medium: await mediumV(), thumbnail: await thumb() };
  const dir = path.join(TMP_DIR, `bench-uploads-fs-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const put = async (name: string, bytes: Buffer) => {
    const tmp = path.join(dir, `${name}.tmp`);
    await writeFile(tmp, bytes, { flush: true });
    await rename(tmp, path.join(dir, name));
  };
  try {
    return {
      outputs,
      metadata: await timeIt(() => sharp(jpeg).metadata()),
      decode: await timeIt(() => sharp(jpeg).raw().toBuffer()),
      original: await timeIt(original),
      medium: await timeIt(mediumV),
      thumbnail: await timeIt(thumb),
      resized: {
        original: await timeIt(() => resizedOriginal().raw().toBuffer()),
        medium: await timeIt(() => resizedMedium().raw().toBuffer()),
        thumbnail: await timeIt(() => resizedThumb().raw().toBuffer()),
      },
      together: await timeIt(() => Promise.all([original(), mediumV(), thumb()])),
      storage: await timeIt(async () => {
        await put("incoming", jpeg);
        await Promise.all([
          put("a.webp", outputs.original),
          put("a-medium.webp", outputs.medium),
          put("a-thumbnail.webp", outputs.thumbnail),
        ]);
        await rm(path.join(dir, "incoming"));
      }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The size sharp gives for `fit: inside` without enlargement. */
const inside = (w: number, h: number, box: { width: number; height: number }) => {
  const scale = Math.min(box.width / w, box.height / h, 1);
  return { width: Math.round(w * scale), height: Math.round(h * scale) };
};

export const uploads: Scenario = {
  name: "uploads",
  title: "Uploads: 1 MB photos (three WebP variants) and a streamed 500 MB video",
  async run(opts) {
    const rows: ResultRow[] = [];
    const details: string[] = [];
    const checks: string[] = [];
    const memoryNotes: string[] = [];
    let requestBytes: number | undefined;

    const photo = await makePhoto();
    const meta = await sharp(photo.jpeg).metadata();
    console.error(
      `  photo: ${int(photo.jpeg.length)} bytes, ${meta.width}×${meta.height} JPEG q${PHOTO.quality} ` +
        `(${photo.ms.toFixed(0)} ms to make)`,
    );
    const breakdown = await imageBreakdown(photo.jpeg);
    const step = (t: { wall: number; cpu: number }) => `${t.cpu.toFixed(0)} ms CPU (${t.wall.toFixed(0)} ms wall)`;
    console.error(
      `  image steps: decode ${step(breakdown.decode)}, original ${step(breakdown.original)}, medium ` +
        `${step(breakdown.medium)}, thumbnail ${step(breakdown.thumbnail)}, all three ${step(breakdown.together)}, ` +
        `storage ${breakdown.storage.wall.toFixed(0)} ms`,
    );

    const hearth = await startHearth({ name: "uploads", nodeArgs: opts.serverNodeArgs });
    const db = new pg.Client({ connectionString: await databaseUrl(hearth) });
    await db.connect();
    const mediaDir = path.join(hearth.dataDir, "media");
    try {
      const url = hearth.url;
      const cookie = await signIn(url);
      const created = await fetch(`${url}/api/communities`, {
        method: "POST",
        headers: { cookie, origin: url, "content-type": "application/json" },
        body: JSON.stringify({ name: "Bench uploads" }),
      });
      if (created.status !== 201) throw new Error(`creating the community answered ${created.status}`);
      const community = (await created.json()) as { id: string; slug: string };
      const postsPrefix = `community-assets/${community.id}/posts/`;

      // The video first, on a fresh process: its memory numbers are about streaming, not about
      // what the image runs left behind.
      const stream = (fileBytes: number, chunked: boolean) => () =>
        streamUpload({ url, cookie, communityId: community.id, fileBytes, chunked });
      const video = await memoryRun(hearth, stream(VIDEO_BYTES, false));
      const v = video.result;
      const answer = (v.status === 200 ? JSON.parse(v.body) : {}) as UploadResult;
      if (v.status !== 200 || answer.size !== VIDEO_BYTES || answer.type !== "video/mp4") {
        throw new Error(`the ${mb(VIDEO_BYTES)} MB video answered ${v.status}: ${v.body.slice(0, 300)}`);
      }
      const stored = statSync(path.join(mediaDir, answer.key)).size;
      const range = await fetch(`${url}${answer.url}`, { headers: { cookie, range: "bytes=0-23" } });
      const firstBytes = Buffer.from(await range.arrayBuffer());
      const [row] = (
        await db.query<{ status: string; size: string; content_type: string }>(
          "SELECT status, size, content_type FROM media_files WHERE key = $1",
          [answer.key],
        )
      ).rows;
      if (stored !== VIDEO_BYTES || range.status !== 206 || !firstBytes.equals(FTYP)) {
        throw new Error(`the stored video is ${stored} bytes, or its first bytes do not read back (${range.status})`);
      }
      if (row?.status !== "ready" || Number(row.size) !== VIDEO_BYTES || row.content_type !== "video/mp4") {
        throw new Error(`the video's media_files row is ${JSON.stringify(row)}`);
      }
      console.error(
        `  500 MB video: ${v.seconds.toFixed(1)} s, ${(mb(VIDEO_BYTES) / v.seconds).toFixed(0)} MB/s; ${memoryText(video)}`,
      );
      const videoRow: ResultRow = {
        endpoint: `POST /api/upload (${mb(VIDEO_BYTES)} MB MP4, streamed to disk)`,
        connections: 1,
        requestsPerSecond: 1 / v.seconds,
        p50: Math.round(v.seconds * 1000),
        p99: Math.round(v.seconds * 1000),
        non2xx: 0,
        errors: 0,
        inputMBps: mb(VIDEO_BYTES) / v.seconds,
        rssGrowthMb: mb(video.growth),
        rssGrowthGoalMb: RSS_GROWTH_GOAL_MB,
      };
      memoryNotes.push(
        `- ${mb(VIDEO_BYTES)} MB MP4 (\`${int(VIDEO_BYTES)}\` bytes, Content-Length sent): answered ${v.status} in ` +
          `${v.seconds.toFixed(1)} s (${(mb(VIDEO_BYTES) / v.seconds).toFixed(1)} MB/s) with size ` +
          `${int(answer.size)} and type ${answer.type}; the file on disk is ${int(stored)} bytes, its row is ready, ` +
          `and a ranged GET of its first 24 bytes gives back the ftyp box. ${memoryText(video)}.`,
      );

      // Over the limit, as a browser sends it (Content-Length known) and without a length (chunked),
      // where only counting the bytes while they stream can find it.
      const mediaBefore = listFiles(mediaDir);
      const videoRowsBefore = (
        await db.query<{ n: number }>("SELECT count(*)::int AS n FROM media_files WHERE content_type = 'video/mp4'")
      ).rows[0].n;
      const overRuns = [
        { bytes: OVER_LIMIT_BYTES, chunked: false, how: "Content-Length sent" },
        { bytes: OVER_LIMIT_BYTES, chunked: true, how: "no Content-Length (chunked)" },
        { bytes: RUNAWAY_BYTES, chunked: true, how: "no Content-Length (chunked)" },
      ];
      for (const { bytes, chunked, how } of overRuns) {
        const over = await memoryRun(hearth, stream(bytes, chunked));
        const o = over.result;
        const code = (() => {
          try {
            return (JSON.parse(o.body) as { error?: { code?: string } }).error?.code;
          } catch {
            return undefined;
          }
        })();
        // 0: the server closed the connection and the client's write failed before it read an answer.
        if (o.status !== 413 && o.status !== 0) {
          throw new Error(`${mb(bytes)} MB, ${how}: answered ${o.status}: ${o.body}`);
        }
        const after = listFiles(mediaDir);
        const left = after.filter((f) => !mediaBefore.includes(f));
        const videoRows = (
          await db.query<{ n: number }>("SELECT count(*)::int AS n FROM media_files WHERE content_type = 'video/mp4'")
        ).rows[0].n;
        if (left.length || videoRows !== videoRowsBefore) {
          throw new Error(`the refused upload left ${left.join(", ") || "no file"} and ${videoRows} video rows`);
        }
        const whole = o.sentTotal >= o.bodyBytes;
        const stopped = o.writeError ?? "connection closed";
        const short = o.bodyBytes - o.sentTotal;
        console.error(
          `  ${mb(bytes)} MB, ${how}: ${o.status || "no answer read"} ${code ?? ""} after ${dur(o.answerSeconds)} with ` +
            `${int(o.sentAtAnswer)} bytes sent; ${int(o.sentTotal)} sent in all (${whole ? "whole body" : stopped}); ` +
            memoryText(over),
        );
        const handed = `${int(o.sentAtAnswer)} bytes (${mb1(o.sentAtAnswer)} MB, ${pct(o.sentAtAnswer / o.bodyBytes)} of the body)`;
        memoryNotes.push(
          `- ${int(mb(bytes))} MB MP4, ${how}: ` +
            (o.status === 413
              ? `answered ${o.status} (${code}) ${dur(o.answerSeconds)} after the first byte, when the client ` +
                `had handed ${handed} to its socket; ` +
                (whole
                  ? `the whole body (${int(o.sentTotal)} bytes) was handed over. `
                  : `it could hand over ${int(o.sentTotal)} bytes (${mb1(o.sentTotal)} MB) of its ` +
                    `${int(o.bodyBytes)} in all` +
                    (short < MB ? ` (all but the last ${int(short)})` : "") +
                    ` before the server closed the connection` +
                    (o.writeError ? ` (${o.writeError}). ` : ". "))
              : `the client read no answer: ${dur(o.answerSeconds)} after the first byte the server had closed ` +
                `the connection and the client's next write failed (${stopped}), with ${handed} handed to its ` +
                `socket (an answer the server sends just before closing is lost when the client's failed ` +
                `write comes first). `) +
            `Nothing of it stayed in storage (no file, no temporary file, no row). ${memoryText(over)}.`,
        );
      }

      // Photos. One upload first: its answer and variants are checked, and its bytes are what the
      // bare server answers.
      const parts = multipart(
        [
          ["communityId", community.id],
          ["uploadType", "posts"],
        ],
        { name: "photo.jpg", type: "image/jpeg" },
      );
      const body = Buffer.concat([parts.head, photo.jpeg, parts.tail]);
      requestBytes = body.length;
      const headers = { cookie, origin: url, "content-type": parts.contentType };
      const first = await fetch(`${url}/api/upload`, { method: "POST", headers, body });
      const firstBody = Buffer.from(await first.arrayBuffer());
      if (first.status !== 200) throw new Error(`one photo upload answered ${first.status}: ${firstBody}`);

      let verified = 0;
      let lastAnswer: UploadResult | undefined;
      const rejected: string[] = [];
      const verifyUpload = (text: string) => {
        let a: UploadResult;
        try {
          a = JSON.parse(text) as UploadResult;
        } catch {
          a = {} as UploadResult;
        }
        const ok =
          a.type === "image/webp" &&
          typeof a.key === "string" &&
          a.key.startsWith(postsPrefix) &&
          a.variants?.original === `/media/${a.key}` &&
          a.variants.medium === `/media/${a.key.replace(/\.webp$/, "-medium.webp")}` &&
          a.variants.thumbnail === `/media/${a.key.replace(/\.webp$/, "-thumbnail.webp")}`;
        if (ok) {
          verified++;
          lastAnswer = a;
        } else if (rejected.length < 3) {
          rejected.push(text.slice(0, 200));
        }
        return ok;
      };
      if (!verifyUpload(firstBody.toString())) throw new Error(`one photo upload answered ${firstBody}`);

      const baseline = await startBaseline("uploads", {
        "/api/upload": {
          status: 200,
          contentType: first.headers.get("content-type") ?? "application/json",
          body: firstBody,
          readBody: true,
        },
      });
      try {
        for (const connections of CONCURRENCIES) {
          const endpoint = `POST /api/upload (${mb1(photo.jpeg.length)} MB JPEG → 3 WebP variants)`;
          const request = { method: "POST" as const, headers, body, connections };
          const c = await compare(
            `${endpoint} × ${connections}`,
            {
              hearth: {
                ...request,
                url: `${url}/api/upload`,
                verifyBody: verifyUpload,
                serverPid: hearth.pid,
                settle: () => waitIdle(hearth.pid),
              },
              baseline: {
                ...request,
                url: `${baseline.url}/api/upload`,
                expectBody: firstBody.toString(),
                serverPid: baseline.pid,
              },
            },
            opts,
          );
          if (rejected.length) throw new Error(`uploads answered wrongly: ${rejected.join(" | ")}`);
          const h = c.hearth;
          const cpuPerUpload = (h.cpu.server * opts.seconds * 1000) / h.total;
          rows.push({
            endpoint,
            connections,
            requestsPerSecond: h.requestsPerSecond,
            p50: h.p50,
            p99: h.p99,
            non2xx: h.non2xx,
            errors: h.errors,
            reference: { label: "bare node:http, body read", requestsPerSecond: c.baseline.requestsPerSecond },
            inputMBps: (h.requestsPerSecond * body.length) / MB,
          });
          details.push(
            `- ${connections} connection${connections > 1 ? "s" : ""}: ${int(h.total)} uploads in ${opts.seconds} s ` +
              `(slowest second ${h.requestsPerSecondMin}), about ${cpuPerUpload.toFixed(0)} ms of server CPU each ` +
              `(PostgreSQL included); the bare server received ` +
              `${int((c.baseline.requestsPerSecond * body.length) / MB)} MB/s; ` +
              (c.rounds.length > 1 ? `ratio by round ${c.rounds.map((r) => pct(r.ratio)).join(", ")}; ` : "") +
              `cores while measuring Hearth: ${cores(h)}; the baseline: ${cores(c.baseline)}.`,
          );
        }
      } finally {
        await baseline.stop();
      }
      rows.push(videoRow);

      // Afterwards: every recorded photo is ready with its three files, nothing is half-made, and
      // the variants read back at their sizes.
      await waitIdle(hearth.pid);
      const counts = (
        await db.query<{ status: string; n: number }>(
          `SELECT status, count(*)::int AS n FROM media_files
            WHERE community_id = $1 AND content_type = 'image/webp' GROUP BY status`,
          [community.id],
        )
      ).rows;
      const ready = counts.find((r) => r.status === "ready")?.n ?? 0;
      const notReady = counts.filter((r) => r.status !== "ready").reduce((a, r) => a + r.n, 0);
      const openJobs = (
        await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM jobs WHERE queue = 'media.variants' AND done_at IS NULL",
        )
      ).rows[0].n;
      const files = listFiles(mediaDir);
      const webp = files.filter((f) => f.startsWith(postsPrefix) && f.endsWith(".webp")).length;
      const leftovers = files.filter((f) => f.endsWith(".tmp") || f.startsWith("incoming/"));
      if (notReady || openJobs || leftovers.length || webp !== ready * 3 || ready < verified) {
        throw new Error(
          `after the runs: ${ready} ready photo rows, ${notReady} not ready, ${openJobs} open variant jobs, ` +
            `${webp} WebP files, leftovers ${leftovers.join(", ") || "none"}, ${verified} answers verified`,
        );
      }
      const sizes: string[] = [];
      const expected = {
        original: inside(PHOTO.width, PHOTO.height, IMAGE_VARIANTS.large),
        medium: inside(PHOTO.width, PHOTO.height, IMAGE_VARIANTS.medium),
        thumbnail: { width: IMAGE_VARIANTS.thumbnail.width, height: IMAGE_VARIANTS.thumbnail.height },
      };
      for (const name of ["original", "medium", "thumbnail"] as const) {
        const res = await fetch(`${url}${lastAnswer!.variants![name]}`, { headers: { cookie } });
        const bytes = Buffer.from(await res.arrayBuffer());
        const m = await sharp(bytes).metadata();
        const want = expected[name];
        if (
          res.status !== 200 ||
          res.headers.get("content-type") !== "image/webp" ||
          m.format !== "webp" ||
          Math.abs((m.width ?? 0) - want.width) > 1 ||
          Math.abs((m.height ?? 0) - want.height) > 1
        ) {
          throw new Error(`the ${name} variant answered ${res.status}, ${m.format} ${m.width}×${m.height}`);
        }
        sizes.push(`${name} ${m.width}×${m.height} (${int(bytes.length)} bytes)`);
      }
      checks.push(
        `${int(verified)} answers (warm-ups included) were each 200 with type image/webp and the original, medium ` +
          `and thumbnail URLs of their key; afterwards the community had ${int(ready)} photo rows, all ready ` +
          `(${int(ready - verified)} more than answers: the uploads in flight when autocannon stopped a run, ` +
          `whose clients had gone, were finished and kept by the server), ${int(webp)} WebP files ` +
          `under its posts folder (three per row), no open variant job, and no temporary or incoming file; ` +
          `the last answer's variants read back through GET /media/… as WebP: ${sizes.join(", ")}`,
      );
    } finally {
      await db.end().catch(() => {});
      await hearth.stop();
    }

    const cpuCount = os.cpus().length;
    const b = breakdown;
    const msOf = (n: number) => n.toFixed(n < 10 ? 1 : 0);
    const step2 = (t: { wall: number; cpu: number }) => `${msOf(t.cpu)} ms CPU (${msOf(t.wall)} ms wall)`;
    return {
      rows,
      notes: [
        `Goal (issue): record upload throughput for 1 MB images (variants included) and the server's peak memory ` +
          `while a 500 MB video streams; the memory must stay flat: the Hearth process's resident memory may grow ` +
          `by less than ${RSS_GROWTH_GOAL_MB} MB during the upload (the goal on the video row). MB here is ` +
          `1,048,576 bytes, as the upload limits count it (500 MB = ${int(VIDEO_BYTES)} bytes).`,
        `The photo: a ${PHOTO.width}×${PHOTO.height} JPEG (quality ${PHOTO.quality}, ${int(photo.jpeg.length)} bytes) ` +
          `made by the harness with sharp from colour gradients, soft blobs, a finer texture and pixel noise ` +
          `(deterministic; the texture strength is searched until the file is ${mb1(PHOTO.minBytes)}–` +
          `${mb1(PHOTO.maxBytes)} MB), so it does not compress away as a flat test image would. Each request is ` +
          `the same ${int(requestBytes ?? 0)}-byte multipart body: communityId and uploadType=posts, then the file.`,
        `How it was measured: Hearth (production config, bundled PostgreSQL, disk storage, rate limits off) and ` +
          `a bare \`node:http\` server each in their own child process; autocannon in the harness on the same ` +
          `${cpuCount} cores; ${opts.warmupSeconds} s warm-up then ${opts.seconds} s measured; baseline right ` +
          `before Hearth, ${opts.rounds} round${opts.rounds > 1 ? "s, the round with the median ratio shown" : ""}. ` +
          `The bare server reads each request body to its end, discards it and answers the bytes of a real ` +
          `Hearth answer, so the ratio is the cost of decoding, re-encoding and storing against only receiving ` +
          `the bytes. Every Hearth answer must be 200 with type image/webp and the three variant URLs of its new ` +
          `key, or the run fails. autocannon leaves uploads in flight when it stops; the harness waits after ` +
          `each run until the server's CPU is idle, so they do not land in the next measurement. req/s is ` +
          `uploads per second, MB/s the request bytes received per second.`,
        `Per concurrency (CPU per upload = the server's cores × measured seconds ÷ uploads answered; cores in use, ` +
          `PostgreSQL included in the server's):`,
        details.join("\n"),
        `Checked after the runs: ${checks.join("; ")}.`,
        `The image work step by step, measured in the harness before the server started, with the server's ` +
          `settings (libvips one thread per image, cache off) and the same sharp pipelines as ` +
          `\`src/server/lib/images.ts\` (median of ${BREAKDOWN_SAMPLES}; CPU counts every thread): reading the ` +
          `header ${step2(b.metadata)} (done twice per upload); a full decode of the JPEG to pixels ` +
          `${step2(b.decode)}, for reference; the original variant (1920 px, WebP q${IMAGE_VARIANTS.large.quality}, ` +
          `${int(b.outputs.original.length)} bytes) ${step2(b.original)}; medium (800 px, q` +
          `${IMAGE_VARIANTS.medium.quality}, ${int(b.outputs.medium.length)} bytes) ${step2(b.medium)}; thumbnail ` +
          `(200×200, q${IMAGE_VARIANTS.thumbnail.quality}, ${int(b.outputs.thumbnail.length)} bytes) ` +
          `${step2(b.thumbnail)}; each pipeline decodes the JPEG itself. The same pipelines stopped before the ` +
          `encode (decode, rotate and resize to raw pixels): original ${step2(b.resized.original)}, medium ` +
          `${step2(b.resized.medium)}, thumbnail ${step2(b.resized.thumbnail)}, so the three WebP encodes take ` +
          `about ${msOf(b.original.cpu + b.medium.cpu + b.thumbnail.cpu - b.resized.original.cpu - b.resized.medium.cpu - b.resized.thumbnail.cpu)} ms ` +
          `of CPU and the three decodes with their resizes about ` +
          `${msOf(b.resized.original.cpu + b.resized.medium.cpu + b.resized.thumbnail.cpu)} ms. The three together, as the server runs ` +
          `them: ${step2(b.together)}. The four disk writes of one upload (the incoming 1 MB, then the three ` +
          `variants at once, each flushed and renamed into place, then the incoming file removed): ` +
          `${b.storage.wall.toFixed(1)} ms wall, ${b.storage.cpu.toFixed(1)} ms CPU.`,
        `Streaming memory: the Hearth process (not its PostgreSQL) sampled every ${SAMPLE_MS} ms from ` +
          `/proc (VmRSS) and over IPC (\`process.memoryUsage()\`), ${IDLE_BEFORE_MS / 1000} s idle before the upload ` +
          `(the median of those samples is "before"), during it and ${IDLE_AFTER_MS / 1000} s after; the kernel's ` +
          `peak-RSS mark (VmHWM) is reset just before the upload and read after, so a peak between two samples ` +
          `is not missed. The video is ftyp box bytes followed by a random ${CHUNK_BYTES / 1024} KB block ` +
          `repeated, generated while sending, so the harness never holds it. The video runs come first, on the ` +
          `fresh server process; the file goes to the data directory's disk (the page cache is not in RSS). ` +
          `"Handed to its socket" counts request bytes whose write had completed into the kernel; on this ` +
          `machine TCP buffers may grow to ${socketBuffers()} (send/receive maximum, tcp_wmem/tcp_rmem), so ` +
          `bytes counted as sent may still sit in the loopback connection unread by the server.`,
        memoryNotes.join("\n"),
      ],
    };
  },
};
