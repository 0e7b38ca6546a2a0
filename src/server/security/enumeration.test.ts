/**
 * I1: an attacker must not learn whether an email has an account, from the status, the body or
 * the time of sign-up, sign-in, password reset and resend-confirmation answers. Sign-in is timed
 * over 200 samples a case, sign-up and reset (whose answers wait out a 400 ms floor, so each
 * case's times are a spike at the floor) over 100: a missing dummy hash (one argon2 hash,
 * measured here too) or a missing floor would move a median by several milliseconds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNIFORM_ANSWER_MS } from "#server/features/auth/auth.routes";
import { hashPassword, verifyPassword } from "#server/lib/auth";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";

let t: TestApp;
let http: ReturnType<typeof api>;
let known: Awaited<ReturnType<typeof signedInUser>>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  known = await signedInUser(t, { name: "Known" });
});
afterAll(() => t.close());

let n = 0;
const fresh = () => `${Date.now().toString(36)}${n++}`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[Math.floor((s.length - 1) / 2)] + s[Math.ceil((s.length - 1) / 2)]) / 2;
};
async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const out = await f();
  return [performance.now() - start, out];
}

const signUp = (email: string) =>
  http.post("/api/auth/sign-up/email", {
    name: "Probe",
    username: `probe_${fresh()}`,
    email,
    password: "analytical-engine",
  });
const reset = (email: string) =>
  http.post("/api/auth/request-password-reset", { email, redirectTo: "/reset-password" });
const signIn = (email: string) => http.post("/api/auth/sign-in/email", { email, password: "not-the-password" });

/** The answer without what differs on every call anyway (generated ids, times, the username sent). */
function shape(body: unknown): unknown {
  return JSON.parse(
    JSON.stringify(body, (key, value) =>
      ["id", "createdAt", "updatedAt", "image", "username"].includes(key) ? typeof value : value,
    ),
  );
}

describe("I1: the same answer for an existing and an unknown email", () => {
  it("sign-up: same status, and the same body apart from generated ids", async () => {
    const email = `new${fresh()}@example.test`;
    const [created, existing] = [await signUp(email), await signUp(known.email)];
    expect(created.status).toBe(200);
    expect(existing.status).toBe(200);
    expect(shape(existing.body)).toEqual({
      ...(shape(created.body) as object),
      user: { ...(shape(created.body) as { user: object }).user, email: known.email },
    });
    expect(existing.headers["set-cookie"]).toBeUndefined();
    expect(created.headers["set-cookie"]).toBeUndefined();
  });

  it("sign-in: an unknown email, a wrong password and an unconfirmed account's wrong password answer alike", async () => {
    const unconfirmed = `pending${fresh()}@example.test`;
    expect((await signUp(unconfirmed)).status).toBe(200);
    const answers = [
      await signIn(`ghost${fresh()}@example.test`),
      await signIn(known.email),
      await signIn(unconfirmed),
    ];
    for (const a of answers) {
      expect(a.status).toBe(401);
      expect(a.body).toEqual(answers[0].body);
    }
  });

  it("password reset and resending the confirmation: same status and body", async () => {
    const [a, b] = [await reset(known.email), await reset(`ghost${fresh()}@example.test`)];
    expect(a.status).toBe(200);
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    const resend = (email: string) => http.post("/api/auth/send-verification-email", { email, callbackURL: "/" });
    const [c, d] = [await resend(known.email), await resend(`ghost${fresh()}@example.test`)];
    expect(c.status).toBe(200);
    expect(d.status).toBe(c.status);
    expect(d.body).toEqual(c.body);
  });
});

describe("I1: timing", () => {
  const SAMPLES = 200;
  let hash = "";
  const hashTimes: number[] = [];
  /** One argon2 verification, timed now (so under the machine's load at this moment). */
  const timeOneHash = async () =>
    hashTimes.push((await timed(() => verifyPassword({ hash, password: "another-password" })))[0]);
  /** The median time of one hash over the samples taken so far. */
  const hashMs = () => median(hashTimes);

  beforeAll(async () => {
    hash = await hashPassword("warm-up-password");
    for (let i = 0; i < 5; i++) await timeOneHash();
  });

  it("sign-in: a wrong password and an unknown email take the same time (a dummy hash for unknown users)", async () => {
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      // Interleaved, so drift in the machine's load hits both alike.
      const [a, ra] = await timed(() => signIn(known.email));
      const [b, rb] = await timed(() => signIn(`ghost${fresh()}@example.test`));
      expect(ra.status).toBe(401);
      expect(rb.status).toBe(401);
      wrong.push(a);
      unknown.push(b);
      if (i % 4 === 0) await timeOneHash();
    }
    const diff = Math.abs(median(wrong) - median(unknown));
    console.info(
      `sign-in medians: wrong password ${median(wrong).toFixed(2)} ms, unknown email ${median(unknown).toFixed(2)} ms; one hash ${hashMs().toFixed(2)} ms`,
    );
    // Half a hash: a path that skipped hashing would differ by a whole one.
    expect(diff).toBeLessThan(hashMs() / 2);
  });

  it("sign-up and reset requests take the same time whether or not the email has an account", async () => {
    const times = {
      signUpNew: [] as number[],
      signUpExisting: [] as number[],
      resetKnown: [] as number[],
      resetUnknown: [] as number[],
    };
    const cases: [keyof typeof times, () => Promise<{ status: number }>][] = [
      ["signUpNew", () => signUp(`new${fresh()}@example.test`)],
      ["signUpExisting", () => signUp(known.email)],
      ["resetKnown", () => reset(known.email)],
      ["resetUnknown", () => reset(`ghost${fresh()}@example.test`)],
    ];
    // The answers wait out the floor, so lanes run side by side (the server's work stays light
    // between waits): 100 samples of each in ~16 s.
    const PADDED_SAMPLES = 100;
    const LANES = 10;
    await Promise.all(
      Array.from({ length: LANES }, async (_, lane) => {
        for (let round = 0; round < PADDED_SAMPLES / LANES; round++) {
          for (let k = 0; k < cases.length; k++) {
            const [name, run] = cases[(k + lane) % cases.length];
            const [ms, res] = await timed(run);
            expect(res.status, name).toBe(200);
            times[name].push(ms);
            if (lane === 0) await timeOneHash();
          }
        }
      }),
    );
    const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
    console.info(`medians (ms): ${JSON.stringify(m, (_, v) => (typeof v === "number" ? Number(v.toFixed(2)) : v))}`);
    for (const v of Object.values(times)) expect(v).toHaveLength(PADDED_SAMPLES);
    expect(Math.abs(m.signUpNew - m.signUpExisting)).toBeLessThan(hashMs() / 2);
    expect(Math.abs(m.resetKnown - m.resetUnknown)).toBeLessThan(hashMs() / 2);
    // The floor is what evens them out: every median sits on it.
    for (const v of Object.values(m)) expect(v).toBeGreaterThanOrEqual(UNIFORM_ANSWER_MS["/sign-up/email"]);
  }, 60_000);
});
