// Makes the demo lesson video that the seed ships: `node scripts/make-demo-video.mjs`.
//
// No ffmpeg needed: Debian's Chromium (the one the end-to-end tests use; CHROMIUM_PATH overrides)
// draws a short animation on a <canvas> in Hearth's colours and records it with MediaRecorder
// (WebM, VP8, 30 fps, a modest bitrate). MediaRecorder writes a live-streaming WebM without a
// duration, so players report Infinity until they have read the whole file; the script adds the
// duration to the file's Segment Info (a small EBML edit), so the lesson player knows the length
// from the metadata. Then it loads the written file in a <video> element and checks its duration,
// size and that it plays. `--check` only checks the existing file.
//
// The result, src/server/seed/assets/lesson-demo.webm, is committed: the demo courses play it
// with no internet. This script documents how it was made.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(root, "src/server/seed/assets/lesson-demo.webm");
const SECONDS = 9;
const WIDTH = 640;
const HEIGHT = 360;
const FPS = 30;
const BITS_PER_SECOND = 350_000;
const MAX_BYTES = 600 * 1024;

const LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
};

/** Runs in the page: draws and records, resolves with the WebM bytes as base64. */
async function recordInPage({ seconds, width, height, fps, bitsPerSecond }) {
  const colors = {
    cream: "#fff7ed",
    peach: "#ffedd5",
    light: "#fed7aa",
    soft: "#fdba74",
    brand: "#f97316",
    deep: "#ea580c",
    ember: "#c2410c",
    dark: "#7c2d12",
  };
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  document.body.appendChild(canvas);
  const g = canvas.getContext("2d");
  const mimeType = ["video/webm;codecs=vp8", "video/webm;codecs=vp9"].find((t) => MediaRecorder.isTypeSupported(t));
  if (!mimeType) throw new Error("this Chromium records no WebM");

  const orbs = Array.from({ length: 7 }, (_, i) => ({
    x: ((i * 97) % 100) / 100,
    y: ((i * 53 + 20) % 100) / 100,
    r: 30 + ((i * 37) % 50),
    speed: 0.02 + ((i * 13) % 7) / 200,
    phase: i * 1.7,
    color: [colors.peach, colors.light, colors.soft][i % 3],
  }));

  const flame = (cx, cy, s, t) => {
    const sway = Math.sin(t * 3) * 0.08;
    g.save();
    g.translate(cx, cy);
    g.fillStyle = colors.brand;
    g.beginPath();
    g.arc(0, 0, s, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = colors.cream;
    g.beginPath();
    g.moveTo(0, -s * 0.62);
    g.bezierCurveTo(s * (0.45 + sway), -s * 0.15, s * 0.42, s * 0.55, 0, s * 0.55);
    g.bezierCurveTo(-s * 0.42, s * 0.55, -s * (0.45 - sway), -s * 0.05, 0, -s * 0.62);
    g.fill();
    g.fillStyle = colors.deep;
    g.beginPath();
    g.moveTo(0, -s * 0.05);
    g.bezierCurveTo(s * 0.22, s * 0.15, s * 0.2, s * 0.48, 0, s * 0.48);
    g.bezierCurveTo(-s * 0.2, s * 0.48, -s * 0.22, s * 0.15, 0, -s * 0.05);
    g.fill();
    g.restore();
  };

  const clock = (s) => `0:${String(Math.floor(s)).padStart(2, "0")}`;
  const ease = (x) => 1 - (1 - Math.min(Math.max(x, 0), 1)) ** 3;

  const draw = (t) => {
    const p = Math.min(t / seconds, 1);
    g.fillStyle = colors.cream;
    g.fillRect(0, 0, width, height);
    for (const o of orbs) {
      const x = ((o.x + t * o.speed) % 1.2) * width - 0.1 * width;
      const y = o.y * height + Math.sin(t * 0.8 + o.phase) * 18;
      g.globalAlpha = 0.55;
      g.fillStyle = o.color;
      g.beginPath();
      g.arc(x, y, o.r, 0, Math.PI * 2);
      g.fill();
    }
    g.globalAlpha = 1;

    // The card, sliding in.
    const enter = ease(t / 0.8);
    g.save();
    g.translate(0, (1 - enter) * 30);
    g.globalAlpha = enter;
    g.fillStyle = "#ffffff";
    g.shadowColor = "rgba(124, 45, 18, 0.18)";
    g.shadowBlur = 24;
    g.beginPath();
    g.roundRect(70, 62, width - 140, 196, 20);
    g.fill();
    g.shadowBlur = 0;
    flame(width / 2, 112, 28, t);
    g.textAlign = "center";
    g.fillStyle = colors.dark;
    g.font = "bold 34px 'DejaVu Sans', sans-serif";
    g.fillText("Welcome to the course", width / 2, 186);
    g.fillStyle = colors.ember;
    g.font = "18px 'DejaVu Sans', sans-serif";
    g.fillText("A short demo lesson from Hearth", width / 2, 220);
    g.restore();

    // Progress bar and seconds counter.
    const barX = 70;
    const barW = width - 140 - 165;
    const barY = 300;
    g.fillStyle = colors.peach;
    g.beginPath();
    g.roundRect(barX, barY, barW, 12, 6);
    g.fill();
    g.fillStyle = colors.brand;
    g.beginPath();
    g.roundRect(barX, barY, Math.max(barW * p, 12), 12, 6);
    g.fill();
    g.fillStyle = colors.deep;
    g.beginPath();
    g.arc(barX + barW * p, barY + 6, 10 + Math.sin(t * 6) * 1.5, 0, Math.PI * 2);
    g.fill();
    g.textAlign = "right";
    g.fillStyle = colors.dark;
    g.font = "bold 20px 'DejaVu Sans Mono', monospace";
    g.fillText(`${clock(t)} / ${clock(seconds)}`, width - 70, barY + 13);
  };

  draw(0);
  const stream = canvas.captureStream(fps);
  const recorder = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: bitsPerSecond });
  const chunks = [];
  recorder.ondataavailable = (e) => e.data.size && chunks.push(e.data);
  const stopped = new Promise((resolve) => (recorder.onstop = resolve));
  // Drawn from the clock, not counted frames: on a busy machine a late frame shows the right time.
  const started = performance.now();
  recorder.start(1000);
  await new Promise((resolve) => {
    const tick = () => {
      const t = (performance.now() - started) / 1000;
      draw(Math.min(t, seconds));
      if (t >= seconds) resolve();
      else setTimeout(tick, 1000 / fps / 2);
    };
    tick();
  });
  recorder.stop();
  await stopped;
  stream.getTracks().forEach((track) => track.stop());
  const bytes = new Uint8Array(await new Blob(chunks, { type: mimeType }).arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { base64: btoa(binary), mimeType };
}

/** Runs in the page: plays the file in a <video> and reports what a player sees. */
async function inspectInPage(base64) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const video = document.createElement("video");
  video.muted = true;
  video.src = URL.createObjectURL(new Blob([bytes], { type: "video/webm" }));
  document.body.appendChild(video);
  await new Promise((resolve, reject) => {
    video.onloadedmetadata = resolve;
    video.onerror = () => reject(new Error(`the video does not load: ${video.error?.message}`));
  });
  const metadataDuration = video.duration;
  await video.play();
  await new Promise((resolve) => setTimeout(resolve, 1200));
  const playedTo = video.currentTime;
  video.pause();
  // Seeking near the end must work too (the 90% auto-completion happens there).
  video.currentTime = metadataDuration * 0.92;
  await new Promise((resolve) => (video.onseeked = resolve));
  return {
    metadataDuration,
    playedTo,
    seekedTo: video.currentTime,
    width: video.videoWidth,
    height: video.videoHeight,
  };
}

// ---------------------------------------------------------------------------------------------
// A minimal EBML reader and the Duration edit.

const ID = {
  segment: 0x18538067,
  seekHead: 0x114d9b74,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  cluster: 0x1f43b675,
  cues: 0x1c53bb6b,
  timecode: 0xe7,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
};

function readId(buf, pos) {
  const first = buf[pos];
  let len = 1;
  while (len <= 4 && !(first & (0x80 >> (len - 1)))) len++;
  if (len > 4) throw new Error(`bad EBML id at ${pos}`);
  let id = 0;
  for (let i = 0; i < len; i++) id = id * 256 + buf[pos + i];
  return { id, len };
}

function readSize(buf, pos) {
  const first = buf[pos];
  let len = 1;
  while (len <= 8 && !(first & (0x80 >> (len - 1)))) len++;
  if (len > 8) throw new Error(`bad EBML size at ${pos}`);
  let value = first & (0xff >> len);
  let allOnes = value === 0xff >> len;
  for (let i = 1; i < len; i++) {
    value = value * 256 + buf[pos + i];
    if (buf[pos + i] !== 0xff) allOnes = false;
  }
  return { size: allOnes ? null : value, len };
}

/** An element header at `pos`: id, where its data starts, its size (null: unknown). */
function element(buf, pos) {
  const id = readId(buf, pos);
  const size = readSize(buf, pos + id.len);
  return { id: id.id, start: pos, dataStart: pos + id.len + size.len, size: size.size, sizeLen: size.len };
}

const readUint = (buf, start, size) => {
  let v = 0;
  for (let i = 0; i < size; i++) v = v * 256 + buf[start + i];
  return v;
};

function encodeSize(value, len) {
  if (value >= 2 ** (7 * len) - 1) throw new Error(`size ${value} does not fit in ${len} bytes`);
  const out = Buffer.alloc(len);
  let v = value;
  for (let i = len - 1; i >= 0; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  out[0] |= 0x80 >> (len - 1);
  return out;
}

/** Where the Segment's Info is, the timecode scale, and the last frame's time (in timecode units). */
function scan(buf) {
  const header = element(buf, 0);
  let pos = header.dataStart + header.size;
  const segment = element(buf, pos);
  if (segment.id !== ID.segment) throw new Error("no Segment after the EBML header");
  const end = segment.size === null ? buf.length : segment.dataStart + segment.size;
  let info = null;
  let timecodeScale = 1_000_000;
  let hasDuration = false;
  const times = [];
  let clusterTime = 0;
  pos = segment.dataStart;
  while (pos < end) {
    const el = element(buf, pos);
    if (el.id === ID.seekHead || el.id === ID.cues) {
      throw new Error("the file has a SeekHead or Cues: inserting bytes would break their offsets");
    }
    if (el.id === ID.info) {
      info = el;
      for (let p = el.dataStart; p < el.dataStart + el.size;) {
        const c = element(buf, p);
        if (c.id === ID.timecodeScale) timecodeScale = readUint(buf, c.dataStart, c.size);
        if (c.id === ID.duration) hasDuration = true;
        p = c.dataStart + c.size;
      }
    }
    if (el.id === ID.cluster) {
      // Live WebM: clusters often have an unknown size; their children run until the next cluster.
      pos = el.dataStart;
      const clusterEnd = el.size === null ? end : el.dataStart + el.size;
      while (pos < clusterEnd) {
        const c = element(buf, pos);
        if (c.id === ID.cluster || c.id === ID.cues) break;
        if (c.id === ID.timecode) clusterTime = readUint(buf, c.dataStart, c.size);
        if (c.id === ID.simpleBlock) times.push(clusterTime + blockTime(buf, c.dataStart));
        if (c.id === ID.blockGroup) {
          for (let p = c.dataStart; p < c.dataStart + c.size;) {
            const b = element(buf, p);
            if (b.id === ID.block) times.push(clusterTime + blockTime(buf, b.dataStart));
            p = b.dataStart + b.size;
          }
        }
        if (c.size === null) throw new Error(`an element of unknown size inside a cluster at ${pos}`);
        pos = c.dataStart + c.size;
      }
      continue;
    }
    if (el.size === null) throw new Error(`a top-level element of unknown size at ${pos}`);
    pos = el.dataStart + el.size;
  }
  if (!info) throw new Error("no Segment Info");
  if (!times.length) throw new Error("no frames");
  return { info, timecodeScale, hasDuration, times };
}

/** A block's time relative to its cluster: after the track number, a signed 16-bit integer. */
function blockTime(buf, start) {
  const track = readSize(buf, start);
  return buf.readInt16BE(start + track.len);
}

/** The file with a Duration element in its Segment Info: the last frame's time plus one frame. */
function withDuration(input) {
  const buf = Buffer.from(input);
  const { info, timecodeScale, hasDuration, times } = scan(buf);
  const sorted = [...times].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((t, i) => t - sorted[i]);
  const frame = gaps.length ? gaps.reduce((a, b) => a + b, 0) / gaps.length : 1e9 / FPS / timecodeScale;
  const duration = sorted.at(-1) + frame;
  if (hasDuration) return { bytes: buf, seconds: (duration * timecodeScale) / 1e9, patched: false };
  const value = Buffer.alloc(8);
  value.writeDoubleBE(duration);
  const durationElement = Buffer.concat([Buffer.from([0x44, 0x89, 0x88]), value]);
  const idLen = info.dataStart - info.sizeLen - info.start;
  const newInfo = Buffer.concat([
    buf.subarray(info.start, info.start + idLen),
    encodeSize(info.size + durationElement.length, info.sizeLen),
    buf.subarray(info.dataStart, info.dataStart + info.size),
    durationElement,
  ]);
  const bytes = Buffer.concat([buf.subarray(0, info.start), newInfo, buf.subarray(info.dataStart + info.size)]);
  return { bytes, seconds: (duration * timecodeScale) / 1e9, patched: true };
}

// ---------------------------------------------------------------------------------------------

const checkOnly = process.argv.includes("--check");
const browser = await chromium.launch(LAUNCH);
try {
  const page = await browser.newPage();
  await page.setContent("<!doctype html><title>Hearth demo video</title><body style='margin:0'></body>");
  if (!checkOnly) {
    const t0 = performance.now();
    const { base64, mimeType } = await page.evaluate(recordInPage, {
      seconds: SECONDS,
      width: WIDTH,
      height: HEIGHT,
      fps: FPS,
      bitsPerSecond: BITS_PER_SECOND,
    });
    const recorded = Buffer.from(base64, "base64");
    const { bytes, seconds, patched } = withDuration(recorded);
    writeFileSync(OUT, bytes);
    console.log(
      `recorded ${mimeType} in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${recorded.length} bytes; ` +
        `${patched ? "added" : "kept"} duration ${seconds.toFixed(3)} s; wrote ${path.relative(root, OUT)}`,
    );
  }
  const file = readFileSync(OUT);
  const seen = await page.evaluate(inspectInPage, file.toString("base64"));
  console.log(`check: ${file.length} bytes, ${JSON.stringify(seen)}`);
  const problems = [];
  if (!Number.isFinite(seen.metadataDuration)) problems.push(`duration after metadata is ${seen.metadataDuration}`);
  else if (seen.metadataDuration < 8 || seen.metadataDuration > 10) {
    problems.push(`duration ${seen.metadataDuration} s, not 8–10 s`);
  }
  if (file.length > MAX_BYTES) problems.push(`${file.length} bytes, more than ${MAX_BYTES}`);
  if (seen.playedTo < 0.5) problems.push(`it played only to ${seen.playedTo} s in 1.2 s`);
  if (seen.width !== WIDTH || seen.height !== HEIGHT) problems.push(`${seen.width}×${seen.height}`);
  if (problems.length) {
    console.error(`the video is not right: ${problems.join("; ")}`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
}
