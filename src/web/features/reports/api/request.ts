import { ApiError, NETWORK_ERROR_MESSAGE } from "#web/lib/api";

/** A JSON call to the reports API (until its routes are in the generated client). */
export async function request<T>(method: "GET" | "POST" | "PUT", path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? { accept: "application/json" } : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "NETWORK", NETWORK_ERROR_MESSAGE);
  }
  const json = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  if (!response.ok) {
    const code = json?.error?.code ?? (response.status >= 500 ? "INTERNAL" : "BAD_REQUEST");
    throw new ApiError(response.status, code, json?.error?.message || "Something went wrong");
  }
  return json as T;
}
