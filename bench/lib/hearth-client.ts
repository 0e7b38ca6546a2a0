import type { FixedResponse } from "./children";

/** The demo owner the seed creates (SEED_DEMO=true). */
export const DEMO_OWNER = { email: "owner@hearth.test", password: "hearth-demo" };

/** Signs in with email and password; returns the `hearth.session_token=...` cookie pair. */
export async function signIn(url: string, credentials = DEMO_OWNER): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify(credentials),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("hearth.session_token="));
  if (!cookie) throw new Error("sign-in set no hearth.session_token cookie");
  return cookie;
}

/** GETs a URL that must answer 200, keeping the exact bytes (to serve from a baseline or compare). */
export async function fetchFixed(url: string, headers: Record<string, string> = {}): Promise<FixedResponse> {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${body.toString()}`);
  return { status: res.status, contentType: res.headers.get("content-type") ?? "application/json", body };
}
