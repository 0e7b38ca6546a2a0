import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { S3Settings } from "#server/lib/storage";
import { freePort } from "#server/lib/free-port";

/** The parts of s3rver (a CommonJS package without type declarations) the tests use. */
type KoaContext = {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
};
type S3rverInstance = {
  store: {
    deleteObject: (bucket: string, key: string) => Promise<void>;
    /** Where s3rver keeps a bucket resource; with key undefined and "uploads", the multipart uploads. */
    getResourcePath: (bucket: string, key: undefined, resource: string) => string;
  };
  /** Koa's middleware list; composed when the server starts, so entries put first run first. */
  middleware: Array<(ctx: KoaContext, next: () => Promise<void>) => Promise<void>>;
  run: () => Promise<{ address: string; port: number }>;
  close: () => Promise<void>;
};
type S3rverClass = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: Array<{ name: string }>;
}) => S3rverInstance;

const requireCjs = createRequire(import.meta.url);
// Loaded through require: s3rver is CommonJS, which keeps the import identical under vitest, tsx and node.
const S3rver = requireCjs("s3rver") as S3rverClass;

/**
 * s3rver makes ListObjectsV2 continuation tokens with DES, which OpenSSL 3 (Node 17+) only offers
 * behind --openssl-legacy-provider; without it every truncated listing fails with InternalError.
 * The token only has to come back to s3rver unchanged, so where DES is missing it is replaced by
 * an identity "cipher" (the token becomes IV + plain text). Nothing else asks for DES.
 */
function letS3rverPaginate(): void {
  type Factory = (algorithm: string, ...rest: unknown[]) => unknown;
  // The CommonJS module object s3rver calls through, so the replacement is the one it sees.
  const crypto = requireCjs("node:crypto") as {
    createCipheriv: Factory;
    createDecipheriv: Factory;
    hearthDesShim?: true;
  };
  if (crypto.hearthDesShim) return;
  try {
    crypto.createCipheriv("des", Buffer.alloc(8), Buffer.alloc(8));
    return;
  } catch {
    // DES unavailable: shim it below.
  }
  const identity = () => ({ update: (data: string | Buffer) => Buffer.from(data), final: () => Buffer.alloc(0) });
  const { createCipheriv, createDecipheriv } = crypto;
  crypto.createCipheriv = (algorithm, ...rest) =>
    algorithm === "des" ? identity() : createCipheriv(algorithm, ...rest);
  crypto.createDecipheriv = (algorithm, ...rest) =>
    algorithm === "des" ? identity() : createDecipheriv(algorithm, ...rest);
  crypto.hearthDesShim = true;
}

const ACCESS_KEY = "S3RVER";
const SECRET_KEY = "S3RVER";
export const TEST_BUCKET = "hearth-test";

/**
 * A real S3-compatible server (s3rver) on 127.0.0.1, a free port and a fresh temp directory, with
 * the bucket `hearth-test`. The settings use path-style addressing and s3rver's built-in key pair.
 *
 * s3rver accepts any SigV4 signature without checking it. Real S3 and R2 do check, and Hearth relies
 * on that for presigned uploads (the signature pins Content-Type and Content-Length), so this server
 * verifies query-string (presigned) SigV4 signatures itself before s3rver sees the request.
 * Requests the SDK signs in the Authorization header are passed through unchecked.
 *
 * Also mended where s3rver falls short of S3: AbortMultipartUpload (s3rver refuses it), ListObjectsV2
 * pagination on Node 17+ and DeleteObjects of many keys in one folder (see below).
 */
export async function startS3Server(): Promise<{
  settings: S3Settings;
  close: () => Promise<void>;
  /** Multipart uploads started and neither completed nor aborted (their parts still stored). */
  pendingUploads: () => Promise<string[]>;
}> {
  letS3rverPaginate();
  const directory = await mkdtemp(path.join(os.tmpdir(), "hearth-s3-"));
  const port = await freePort();
  const server = new S3rver({
    address: "127.0.0.1",
    port,
    directory,
    silent: true,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  // s3rver deletes the objects of one DeleteObjects request all at once, and each removal also removes
  // directories it finds empty; with many keys in one folder those removals race and the request
  // fails with InternalError. Here they run one at a time; S3 has no such race.
  const store = server.store;
  const deleteObject = store.deleteObject.bind(store);
  let deleting: Promise<unknown> = Promise.resolve();
  store.deleteObject = (bucket, key) => {
    const next = deleting.then(() => deleteObject(bucket, key));
    deleting = next.catch(() => {});
    return next;
  };
  const uploadsDir = store.getResourcePath(TEST_BUCKET, undefined, "uploads");
  const fail = (ctx: KoaContext, status: number, code: string, message: string) => {
    ctx.status = status;
    ctx.type = "application/xml";
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  };
  server.middleware.unshift(async (ctx, next) => {
    const refusal = checkPresignedSignature(ctx.method, ctx.url, ctx.headers);
    if (refusal) return fail(ctx, 403, "SignatureDoesNotMatch", refusal);
    // s3rver answers AbortMultipartUpload with 405 and keeps the parts; S3 drops them and answers 204.
    const url = new URL(ctx.url, "http://s3.invalid");
    const uploadId = url.searchParams.get("uploadId");
    if (ctx.method === "DELETE" && uploadId !== null && url.pathname.startsWith(`/${TEST_BUCKET}/`)) {
      const dir = path.join(uploadsDir, uploadId);
      if (!/^[0-9a-f]+$/.test(uploadId) || !(await stat(dir).catch(() => null))) {
        return fail(ctx, 404, "NoSuchUpload", "The specified upload does not exist.");
      }
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    await next();
  });
  try {
    await server.run();
  } catch (err) {
    await rm(directory, { recursive: true, force: true });
    throw err;
  }
  let closed = false;
  return {
    settings: {
      endpoint: `http://127.0.0.1:${port}`,
      region: "us-east-1",
      bucket: TEST_BUCKET,
      accessKeyId: ACCESS_KEY,
      secretAccessKey: SECRET_KEY,
      forcePathStyle: true,
    },
    pendingUploads: async () => await readdir(uploadsDir).catch(() => []),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await server.close();
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
  };
}

const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data, "utf8").digest();
/** RFC 3986 encoding, as SigV4 canonicalizes query keys and values. */
const escapeUri = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Why a request signed in its query string (a presigned URL) does not verify, or null when it does or
 * is not presigned. Follows AWS Signature Version 4 for S3: path as sent, UNSIGNED-PAYLOAD, and every
 * header named in X-Amz-SignedHeaders with the value the request actually carries.
 */
function checkPresignedSignature(
  method: string,
  url: string,
  headers: Record<string, string | string[] | undefined>,
): string | null {
  const q = url.indexOf("?");
  if (q < 0) return null;
  const pathname = url.slice(0, q);
  const query = new Map<string, string>();
  try {
    for (const pair of url.slice(q + 1).split("&")) {
      if (!pair) continue;
      const eq = pair.indexOf("=");
      const name = decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq));
      query.set(name, eq < 0 ? "" : decodeURIComponent(pair.slice(eq + 1)));
    }
  } catch {
    return "Malformed query string";
  }
  if (query.get("X-Amz-Algorithm") !== "AWS4-HMAC-SHA256") return null;
  const credential = query.get("X-Amz-Credential") ?? "";
  const [accessKey, ...scopeParts] = credential.split("/");
  if (accessKey !== ACCESS_KEY || scopeParts.length !== 4) return "Unknown credential";
  const [shortDate, region, service] = scopeParts;
  const longDate = query.get("X-Amz-Date") ?? "";
  const signedHeaders = (query.get("X-Amz-SignedHeaders") ?? "").split(";").filter(Boolean);
  const provided = query.get("X-Amz-Signature") ?? "";

  const canonicalQuery = [...query]
    .filter(([name]) => name !== "X-Amz-Signature")
    .map(([name, value]) => [escapeUri(name), escapeUri(value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const headerValue = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value.join(",") : (value ?? "")).trim().replace(/\s+/g, " ");
  };
  const canonicalRequest = [
    method,
    pathname,
    canonicalQuery,
    ...signedHeaders.map((name) => `${name}:${headerValue(name)}`),
    "",
    signedHeaders.join(";"),
    query.get("X-Amz-Content-Sha256") ?? "UNSIGNED-PAYLOAD",
  ].join("\n");
  const stringToSign = [
    "AWS4-HMAC-SHA256",
    longDate,
    scopeParts.join("/"),
    createHash("sha256").update(canonicalRequest, "utf8").digest("hex"),
  ].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${SECRET_KEY}`, shortDate), region), service), "aws4_request");
  const expected = Buffer.from(hmac(signingKey, stringToSign).toString("hex"));
  const actual = Buffer.from(provided);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    return "The request signature we calculated does not match the signature you provided.";
  }
  return null;
}
