import { unwrap } from "#web/lib/api";

/**
 * A JSON call to the messages API, with the client's one error type. Bridges the routes until they
 * are in the generated client.
 */
export function request<T>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", url: string, body?: unknown) {
  return unwrap<T>(
    fetch(url, {
      method,
      credentials: "same-origin",
      headers:
        body === undefined
          ? { accept: "application/json" }
          : { "content-type": "application/json", accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (response) => {
      const text = await response.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      return { response, data: json as T, error: json };
    }),
  );
}
