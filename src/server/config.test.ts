import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, isLoopbackAddress, isLoopbackHost, loadConfig, parseTrustProxy, type TrustHops } from "./config";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "hearth-config-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: "x".repeat(32), ...env });

describe("TRUST_PROXY", () => {
  it("is off by default and for false, no, 0", () => {
    expect(load({}).trustProxy).toBe(false);
    for (const v of ["false", "no", "0", "FALSE"]) expect(parseTrustProxy(v)).toBe(false);
  });

  it("true and yes mean one proxy; a number is that many hops, counted from the socket", () => {
    for (const v of ["true", "yes", "1"]) expect((parseTrustProxy(v) as TrustHops).hops).toBe(1);
    const two = load({ TRUST_PROXY: "2" }).trustProxy as TrustHops;
    expect(two.hops).toBe(2);
    // Hop 0 is the socket's peer: with 2, the peer and the address it appended are trusted, no further.
    expect([0, 1, 2, 3].map((hop) => two("203.0.113.9", hop))).toEqual([true, true, false, false]);
    const one = load({ TRUST_PROXY: "true" }).trustProxy as TrustHops;
    expect([one("127.0.0.1", 0), one("198.51.100.7", 1)]).toEqual([true, false]);
  });

  it("takes a list of proxy addresses, CIDR ranges and proxy-addr's names", () => {
    expect(load({ TRUST_PROXY: "127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback" }).trustProxy).toEqual([
      "127.0.0.1",
      "10.0.0.0/8",
      "::1",
      "fd00::/8",
      "loopback",
    ]);
  });

  it("refuses anything else with a clear message", () => {
    for (const v of ["maybe", "10.0.0.0/33", "::1/129", "10.0.0.1/8/2", "proxy.example.com", "-1", "1.5", "999"]) {
      expect(parseTrustProxy(v), v).toBeNull();
      expect(() => load({ TRUST_PROXY: v }), v).toThrow(ConfigError);
    }
    expect(() => load({ TRUST_PROXY: "maybe" })).toThrow(/TRUST_PROXY: must be false, true \(one proxy\)/);
  });
});

describe("DEV_MAILBOX", () => {
  it("is on by default only when PUBLIC_URL names this machine", () => {
    for (const url of [
      "http://localhost:3000",
      "http://LOCALHOST:5173",
      "http://app.localhost",
      "http://127.0.0.1:3000",
      "http://127.8.0.1",
      "http://[::1]:3000",
      "http://[::ffff:127.0.0.1]",
    ]) {
      expect(load({ PUBLIC_URL: url }).devMailbox, url).toBe(true);
    }
    expect(load({}).devMailbox).toBe(true); // PUBLIC_URL defaults to http://localhost:$PORT
    for (const url of [
      "https://community.example.com",
      "http://localhost.example.com",
      "http://10.0.0.5:3000",
      "http://[::2]",
      "http://128.0.0.1",
    ]) {
      expect(load({ PUBLIC_URL: url }).devMailbox, url).toBe(false);
    }
  });

  it("an explicit value wins either way", () => {
    expect(load({ PUBLIC_URL: "http://localhost:3000", DEV_MAILBOX: "false" }).devMailbox).toBe(false);
    expect(load({ PUBLIC_URL: "https://community.example.com", DEV_MAILBOX: "true" }).devMailbox).toBe(true);
    expect(() => load({ DEV_MAILBOX: "sometimes" })).toThrow(ConfigError);
  });
});

describe("ADMIN_EMAILS", () => {
  it("is a comma list, trimmed and lowercased; empty by default", () => {
    expect(load({}).adminEmails).toEqual([]);
    expect(load({ ADMIN_EMAILS: " Ops@Example.com, second@example.com ,," }).adminEmails).toEqual([
      "ops@example.com",
      "second@example.com",
    ]);
    expect(() => load({ ADMIN_EMAILS: "ops@example.com, not an address" })).toThrow(/ADMIN_EMAILS/);
  });
});

describe("loopback helpers", () => {
  it("tell this machine's addresses from others", () => {
    for (const a of ["127.0.0.1", "127.255.0.9", "::1", "::ffff:127.0.0.1"]) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ["10.0.0.1", "::ffff:10.0.0.1", "0.0.0.0", "::", "localhost", ""]) {
      expect(isLoopbackAddress(a), a).toBe(false);
    }
    expect(isLoopbackHost("[::1]")).toBe(true);
    expect(isLoopbackHost("localhost.")).toBe(true);
    expect(isLoopbackHost("evil-localhost")).toBe(false);
  });
});
