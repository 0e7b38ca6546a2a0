import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import type { S3Settings } from "./lib/storage";
import { z } from "zod";
import { PLATFORM_FEE_MAX } from "#shared/payments";

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

/** Workers started when WORKERS is unset: one per core, at most this many (8 × (10 + 1) connections < 100). */
export const DEFAULT_WORKERS_MAX = 8;

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * HTTP worker processes (issue 23, docs/decisions/0021-workers.md); 0 means one per core. Unset: one
   * per core up to DEFAULT_WORKERS_MAX, so that the workers' pools (DATABASE_POOL_SIZE each, plus a
   * LISTEN connection) fit a stock PostgreSQL's 100 connections on any machine.
   */
  WORKERS: z.coerce
    .number()
    .int()
    .min(0, "must be 0 (one per core) or more")
    .max(64)
    .optional()
    .transform((n) =>
      n === undefined
        ? Math.min(availableParallelism(), DEFAULT_WORKERS_MAX)
        : n === 0
          ? Math.min(availableParallelism(), 64)
          : n,
    ),
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Hearth <no-reply@hearth.local>"),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  SEED_DEMO: bool.default(true),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((v, c) => {
      const parsed = parseTrustProxy(v);
      if (parsed === null) {
        c.addIssue({
          code: "custom",
          message:
            "must be false, true (one proxy), a number of proxies (1, 2…) or a comma-separated list of proxy addresses or CIDR ranges",
        });
        return z.NEVER;
      }
      return parsed;
    }),
  DEV_MAILBOX: bool.optional(),
  ADMIN_EMAILS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email("must be a comma-separated list of email addresses"))),
  RATE_LIMITS: bool.default(true),
  PG_STAT_STATEMENTS: bool.default(false),
  SERVE_WEB: bool.default(true),
  FIRST_VIEW: bool.default(true),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default("auto"),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(true),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(0),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_/, "must be a Stripe secret key (sk_test_…, sk_live_…)")
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .startsWith("whsec_", "must be a Stripe webhook signing secret (whsec_…)")
    .optional(),
  /** Another address for Stripe's API (a local fake in tests). */
  STRIPE_API_BASE: z.url().optional(),
  STRIPE_CONNECT: bool.default(false),
  PLATFORM_FEE_PERCENT: z.coerce.number().min(0).max(PLATFORM_FEE_MAX).default(0),
});

export type Config = {
  env: "development" | "production" | "test";
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** HTTP worker processes sharing the port (src/server/cluster.ts); 1: a single process. */
  workers: number;
  authSecret: string;
  secureCookies: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  google: { clientId: string; clientSecret: string } | undefined;
  seedDemo: boolean;
  logLevel: string;
  /**
   * Which peers may tell the client's address, protocol and host (X-Forwarded-*): none, the last N
   * hops (a function, as Fastify ignores a bare hop count), or these proxy addresses and ranges.
   */
  trustProxy: TrustProxy;
  /** Serve the local outbox at /dev/mailbox to requests made on this machine, not through a proxy. */
  devMailbox: boolean;
  /** The instance operators (lowercase): with a confirmed email in this list, /admin/mailbox shows the outbox. */
  adminEmails: string[];
  rateLimits: boolean;
  /** The bundled PostgreSQL loads pg_stat_statements (every statement's calls and time, for profiling). */
  pgStatStatements: boolean;
  serveWeb: boolean;
  /** Pages are sent with their first view drawn on the server (lib/first-view.ts). */
  firstView: boolean;
  /** S3-compatible storage; absent means local disk under DATA_DIR/media. */
  s3: S3Settings | undefined;
  /** After SIGTERM, how long /api/ready answers 503 while requests are still served, before closing. */
  shutdownDrainMs: number;
  payments: PaymentsConfig;
};

/**
 * Payments (docs/payments.md): simulated unless both Stripe keys are set. `livemode` follows the key
 * (sk_live_…); events of the other mode are refused. With `connect`, each community's owner
 * connects their own Stripe account and the instance keeps `platformFeePercent` of each payment.
 */
export type PaymentsConfig =
  | { provider: "simulated"; platformFeePercent: number; connect: false }
  | {
      provider: "stripe";
      secretKey: string;
      webhookSecret: string;
      livemode: boolean;
      connect: boolean;
      platformFeePercent: number;
      /** Stripe's API address when not api.stripe.com (tests). */
      api: { host: string; port: number; protocol: "http" | "https" } | undefined;
    };

export class ConfigError extends Error {}

function paymentsConfig(e: z.infer<typeof envSchema>): PaymentsConfig {
  const platformFeePercent = e.PLATFORM_FEE_PERCENT;
  if (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET)
    return { provider: "simulated", platformFeePercent, connect: false };
  const base = e.STRIPE_API_BASE ? new URL(e.STRIPE_API_BASE) : undefined;
  return {
    provider: "stripe",
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    livemode: /^(sk|rk)_live_/.test(e.STRIPE_SECRET_KEY),
    connect: e.STRIPE_CONNECT,
    platformFeePercent,
    api: base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === "https:" ? 443 : 80)),
          protocol: base.protocol === "https:" ? "https" : "http",
        }
      : undefined,
  };
}

/** Trust the last `hops` addresses of the forwarding chain (the socket's peer is hop 0). */
export type TrustHops = ((address: string, hop: number) => boolean) & { hops: number };
export type TrustProxy = false | TrustHops | string[];

const PROXY_ADDRESS_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function trustHops(hops: number): TrustHops {
  return Object.assign((_address: string, hop: number) => hop < hops, { hops });
}

/**
 * TRUST_PROXY: false (no proxy), true (= 1), a hop count, or a comma-separated list of proxy
 * addresses, CIDR ranges or the names loopback, linklocal, uniquelocal. Null when unreadable.
 */
export function parseTrustProxy(raw: string): TrustProxy | null {
  const v = raw.trim().toLowerCase();
  if (v === "false" || v === "no" || v === "0") return false;
  if (v === "true" || v === "yes") return trustHops(1);
  if (/^\d+$/.test(v)) return Number(v) <= 20 ? trustHops(Number(v)) : null;
  const list = v
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const valid = (entry: string) => {
    if (PROXY_ADDRESS_NAMES.has(entry)) return true;
    const [address, prefix, extra] = entry.split("/");
    const family = net.isIP(address);
    if (!family || extra !== undefined) return false;
    if (prefix === undefined) return true;
    return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
  };
  return list.length > 0 && list.every(valid) ? list : null;
}

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** An address of this machine's loopback interface (127.0.0.0/8, ::1, also IPv4-mapped). */
export function isLoopbackAddress(address: string): boolean {
  const family = net.isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** A host name that can only mean this machine: localhost (and *.localhost) or a loopback address. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost") || isLoopbackAddress(h);
}

/** The only reader of process.env. A bad setting stops the process with a list of what is wrong. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== "")),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const s3Keys = [e.S3_BUCKET, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY];
  if (s3Keys.some(Boolean) && !s3Keys.every(Boolean)) {
    throw new ConfigError(
      "Invalid configuration:\n  - S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together",
    );
  }
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      "Invalid configuration:\n  - STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together",
    );
  }
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    throw new ConfigError("Invalid configuration:\n  - GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together");
  }
  const dataDir = path.resolve(overrides.dataDir ?? e.DATA_DIR);
  const port = overrides.port ?? e.PORT;
  const publicUrl = (overrides.publicUrl ?? e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    workers: e.WORKERS,
    authSecret: overrides.authSecret ?? e.AUTH_SECRET ?? persistentSecret(dataDir),
    secureCookies: publicUrl.startsWith("https://"),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET }
        : undefined,
    seedDemo: e.SEED_DEMO,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    devMailbox: e.DEV_MAILBOX ?? isLoopbackHost(new URL(publicUrl).hostname),
    adminEmails: e.ADMIN_EMAILS,
    rateLimits: e.RATE_LIMITS,
    pgStatStatements: e.PG_STAT_STATEMENTS,
    serveWeb: e.SERVE_WEB,
    firstView: e.FIRST_VIEW,
    s3:
      e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            bucket: e.S3_BUCKET,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : undefined,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_SECONDS * 1000,
    payments: paymentsConfig(e),
    ...overrides,
  };
}

/*
 * The settings read before loadConfig (npm start's preflight, the DATA_DIR check in main.ts) and by
 * the bundled PostgreSQL run as root. They live here so that config.ts stays the only reader of
 * process.env; each takes the environment as a parameter for tests.
 */

/** DATA_DIR as the start-up checks resolve it, before loadConfig writes the generated secret into it. */
export function dataDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.DATA_DIR?.trim() || "./data");
}

/** Whether DATABASE_URL names an external PostgreSQL (then no bundled one is prepared). */
export function hasExternalDatabase(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.DATABASE_URL?.trim());
}

/** Where Hearth keeps what the postgres user must reach, outside any private folder (HEARTH_SYSTEM_DIR). */
export function systemDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.HEARTH_SYSTEM_DIR || "/var/lib/hearth");
}

/** The name of the user Hearth runs as, for the messages that tell it what to fix. */
export function currentUserName(env: NodeJS.ProcessEnv = process.env): string {
  return env.USER || env.LOGNAME || String(process.getuid?.() ?? "");
}

/** This process's environment with some variables set, for a child process (initdb, postgres). */
export function childProcessEnv(
  extra: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return { ...env, ...extra };
}

/** Without AUTH_SECRET, a random secret is made once and kept in DATA_DIR so sessions survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not there yet
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
