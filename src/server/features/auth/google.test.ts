import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestApp, type TestApp } from "#server/test/harness";

let withGoogle: TestApp;
let without: TestApp;
beforeAll(async () => {
  withGoogle = await createTestApp({ google: { clientId: "test-client.apps.example", clientSecret: "test-secret" } });
  without = await createTestApp();
});
afterAll(async () => {
  await withGoogle.close();
  await without.close();
});

describe("Google sign-in", () => {
  it("is advertised only when configured", async () => {
    expect((await api(withGoogle.app).get("/api/config")).body.google_enabled).toBe(true);
    expect((await api(without.app).get("/api/config")).body.google_enabled).toBe(false);
    const res = await api(without.app).post("/api/auth/sign-in/social", {
      provider: "google",
      callbackURL: "/signup/pricing",
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it("starts an authorization-code flow bound to this browser (state and PKCE)", async () => {
    const res = await api(withGoogle.app).post("/api/auth/sign-in/social", {
      provider: "google",
      callbackURL: "/signup/pricing",
    });
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    expect(url.origin).toBe("https://accounts.google.com");
    expect(url.searchParams.get("client_id")).toBe("test-client.apps.example");
    expect(url.searchParams.get("redirect_uri")).toBe("http://localhost:3000/api/auth/callback/google");
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
  });

  it("refuses an open redirect as the callback", async () => {
    const res = await api(withGoogle.app).post("/api/auth/sign-in/social", {
      provider: "google",
      callbackURL: "https://evil.test/steal",
    });
    expect(res.status).toBe(403);
  });

  it("refuses a callback with a forged state, creating no session", async () => {
    const res = await withGoogle.app.inject({
      method: "GET",
      url: "/api/auth/callback/google?code=attacker-code&state=forged-state",
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(300);
    expect(String(res.headers["set-cookie"] ?? "")).not.toMatch(/session_token=[^;]+/);
    if (res.statusCode === 302) expect(String(res.headers.location)).toMatch(/error=/);
  });
});
