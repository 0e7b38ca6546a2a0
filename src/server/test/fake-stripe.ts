import http from "node:http";
import type { AddressInfo } from "node:net";
import { createControls } from "./fake-stripe-controls";
import {
  metadataOf,
  newId,
  parseForm,
  str,
  type FakeAccount,
  type FakeInvoice,
  type FakeObject,
  type FakePortalSession,
  type FakePrice,
  type FakeSession,
  type FakeSubscription,
  type Form,
  type SubscriptionStatus,
} from "./fake-stripe-objects";
import { ApiError, createStore, missing, type FakeStripeOptions } from "./fake-stripe-store";

/*
 * A fake Stripe for tests and benchmarks (issue 18): node:http on 127.0.0.1 and a free port,
 * speaking the part of Stripe's REST API Hearth's stripe provider uses, with the `stripe` package
 * pointed at it (host, port, protocol). State is in memory (fake-stripe-store.ts). What a
 * customer or time would do at Stripe (paying, a renewal, a period ending, onboarding) are test
 * controls (fake-stripe-controls.ts), as methods and as small HTTP endpoints for browser tests;
 * each emits the events Stripe would, signed as Stripe signs them and, with `webhookUrl`,
 * delivered there in order (or held back until released: POST /test/webhooks/hold, /release).
 */

export type { FakeStripeOptions };

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

/** A JSON body as a parsed form: numbers and booleans as the strings a form would carry. */
function jsonForm(v: unknown): Form {
  const convert = (x: unknown): Form[string] =>
    Array.isArray(x) ? x.map(convert) : x !== null && typeof x === "object" ? jsonForm(x) : String(x ?? "");
  return Object.fromEntries(Object.entries(v ?? {}).map(([k, x]) => [k, convert(x)]));
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

export async function startFakeStripe(options: FakeStripeOptions) {
  const store = createStore(options);
  const controls = createControls(store);
  const { get, objects, subscriptionOrder, plans, onboardingUrls, events } = store;
  const {
    completeCheckout,
    renew,
    endPeriod,
    cancelNow,
    cancelAtPeriodEnd,
    completeOnboarding,
    setSubscriptionStatus,
  } = controls;
  /** Answers already given per API key and idempotency key, replayed as Stripe does. */
  const idempotent = new Map<string, { request: string; status: number; body: string }>();

  type Route = [method: string, pattern: RegExp, handler: (m: string[], f: Form, q: URLSearchParams) => unknown];
  const api: Route[] = [
    ["POST", /^\/v1\/customers$/, (_, f) => store.createCustomer(str(f, "email") ?? null, metadataOf(f))],
    ["GET", /^\/v1\/customers\/([^/]+)$/, ([id]) => get(id, "customer", "customer")],
    ["POST", /^\/v1\/products$/, (_, f) => store.createProduct(f)],
    ["POST", /^\/v1\/prices$/, (_, f) => store.createPrice(f)],
    ["GET", /^\/v1\/prices\/([^/]+)$/, ([id]) => get(id, "price", "price")],
    ["POST", /^\/v1\/checkout\/sessions$/, (_, f) => store.createSession(f)],
    ["GET", /^\/v1\/checkout\/sessions\/([^/]+)$/, ([id]) => get(id, "checkout.session", "checkout.session")],
    ["GET", /^\/v1\/subscriptions$/, (_, __, q) => store.listSubscriptions(q)],
    ["GET", /^\/v1\/subscriptions\/([^/]+)$/, ([id]) => get(id, "subscription", "subscription")],
    ["POST", /^\/v1\/subscriptions\/([^/]+)$/, ([id], f) => store.updateSubscription(id, f)],
    ["GET", /^\/v1\/invoices\/([^/]+)$/, ([id]) => get(id, "invoice", "invoice")],
    ["POST", /^\/v1\/refunds$/, (_, f) => store.createRefund(f)],
    ["GET", /^\/v1\/refunds\/([^/]+)$/, ([id]) => get(id, "refund", "refund")],
    ["GET", /^\/v1\/payment_intents\/([^/]+)$/, ([id]) => get(id, "payment_intent", "payment_intent")],
    ["GET", /^\/v1\/charges\/([^/]+)$/, ([id]) => get(id, "charge", "charge")],
    ["POST", /^\/v1\/billing_portal\/sessions$/, (_, f) => store.createPortalSession(f)],
    ["POST", /^\/v1\/accounts$/, (_, f) => store.createAccount(f)],
    ["GET", /^\/v1\/accounts\/([^/]+)$/, ([id]) => get(id, "account", "account")],
    ["POST", /^\/v1\/account_links$/, (_, f) => store.createAccountLink(f)],
  ];

  /** The pages a browser test clicks through, and the controls as HTTP endpoints. */
  const pages: Route[] = [
    [
      "GET",
      /^\/checkout\/([^/]+)$/,
      ([id]) => {
        const s = get<FakeSession>(id, "checkout.session", "checkout.session");
        const price = get<FakePrice>(plans.get(id)!.price, "price", "price");
        const amount = `${(price.unit_amount / 100).toFixed(2)} ${price.currency.toUpperCase()}`;
        return page(
          "Fake Stripe Checkout",
          `<p>${escapeHtml(s.mode)}: ${escapeHtml(amount)}${price.recurring ? ` / ${price.recurring.interval}` : ""}</p>` +
            `<form method="post" action="/checkout/${s.id}/complete"><button type="submit">Pay</button></form>` +
            (s.cancel_url ? `<p><a href="${escapeHtml(s.cancel_url)}">Cancel</a></p>` : ""),
        );
      },
    ],
    [
      "POST",
      /^\/checkout\/([^/]+)\/complete$/,
      async ([id]) => {
        const s = await completeCheckout(id);
        return redirect((s.success_url ?? store.url()).replace("{CHECKOUT_SESSION_ID}", s.id));
      },
    ],
    [
      "GET",
      /^\/portal\/([^/]+)$/,
      ([id]) => {
        const p = get<FakePortalSession>(id, "billing_portal.session", "billing_portal.session");
        const subs = subscriptionOrder
          .map((sid) => objects.get(sid) as FakeSubscription)
          .filter((s) => s.customer === p.customer && s.status !== "canceled");
        const rows = subs.map(
          (s) =>
            `<li>${escapeHtml(s.id)} (${s.status}${s.cancel_at_period_end ? ", cancels at period end" : ""})` +
            (s.cancel_at_period_end
              ? ""
              : ` <form method="post" action="/portal/${p.id}/cancel"><input type="hidden" name="subscription" value="${s.id}"><button type="submit">Cancel plan</button></form>`) +
            "</li>",
        );
        const back = p.return_url ? `<p><a href="${escapeHtml(p.return_url)}">Return</a></p>` : "";
        return page("Fake Stripe customer portal", `<ul>${rows.join("")}</ul>${back}`);
      },
    ],
    [
      "POST",
      /^\/portal\/([^/]+)\/cancel$/,
      async ([id], f) => {
        const p = get<FakePortalSession>(id, "billing_portal.session", "billing_portal.session");
        const s = get<FakeSubscription>(str(f, "subscription") ?? "", "subscription", "subscription");
        if (s.customer !== p.customer) throw missing("subscription", s.id);
        await cancelAtPeriodEnd(s.id);
        return redirect(p.return_url ?? store.url());
      },
    ],
    [
      "GET",
      /^\/onboarding\/([^/]+)$/,
      ([id]) => {
        const a = get<FakeAccount>(id, "account", "account");
        return page(
          "Fake Stripe Connect onboarding",
          `<p>${escapeHtml(a.email ?? a.id)}</p><form method="post" action="/onboarding/${a.id}/complete"><button type="submit">Finish onboarding</button></form>`,
        );
      },
    ],
    [
      "POST",
      /^\/onboarding\/([^/]+)\/complete$/,
      async ([id]) => {
        await completeOnboarding(id);
        return redirect(onboardingUrls.get(id)?.return || store.url());
      },
    ],
    [
      "GET",
      /^\/invoices\/([^/]+)(?:\/pdf)?$/,
      ([id]) => {
        const i = get<FakeInvoice>(id, "invoice", "invoice");
        const amount = `${(i.amount_due / 100).toFixed(2)} ${i.currency.toUpperCase()}`;
        return page(`Invoice ${i.id}`, `<p>${escapeHtml(amount)}: ${escapeHtml(i.status)}</p>`);
      },
    ],
    ["POST", /^\/test\/checkout\/([^/]+)\/complete$/, ([id]) => completeCheckout(id)],
    [
      "POST",
      /^\/test\/subscriptions\/([^/]+)\/renew$/,
      ([id], f, q) => renew(id, { succeed: (str(f, "succeed") ?? q.get("succeed")) !== "false" }),
    ],
    ["POST", /^\/test\/subscriptions\/([^/]+)\/end-period$/, ([id]) => endPeriod(id)],
    ["POST", /^\/test\/subscriptions\/([^/]+)\/cancel$/, ([id]) => cancelNow(id)],
    [
      "POST",
      /^\/test\/subscriptions\/([^/]+)\/status$/,
      ([id], f, q) => setSubscriptionStatus(id, (str(f, "status") ?? q.get("status") ?? "") as SubscriptionStatus),
    ],
    ["POST", /^\/test\/accounts\/([^/]+)\/complete-onboarding$/, ([id]) => completeOnboarding(id)],
    ["GET", /^\/test\/events$/, () => ({ object: "list", data: events })],
    [
      "POST",
      /^\/test\/webhooks\/hold$/,
      () => {
        store.holdDeliveries();
        return { held: true };
      },
    ],
    [
      "POST",
      /^\/test\/webhooks\/release$/,
      async () => {
        store.releaseDeliveries();
        await store.idle();
        return { held: false };
      },
    ],
    ["GET", /^\/health$/, () => ({ ok: true })],
  ];

  type Redirect = { redirect: string };
  const redirect = (to: string): Redirect => ({ redirect: to });

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    if (typeof body === "string") {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);
      return;
    }
    const json = JSON.stringify(body, null, 2);
    res.writeHead(status, { "content-type": "application/json", "request-id": newId("req_"), ...headers }).end(json);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const contentType = req.headers["content-type"] ?? "";
    // The test endpoints also take JSON ({"succeed": false}); its values are read as the form's strings.
    const form = contentType.includes("application/json") ? jsonForm(JSON.parse(raw || "{}")) : parseForm(raw);
    const isApi = url.pathname.startsWith("/v1/");
    const routes = isApi ? api : pages;
    const match = routes
      .map(([m, pattern, handler]) => [m, pattern.exec(url.pathname), handler] as const)
      .find(([m, found]) => found && m === method);

    if (isApi) {
      const auth = req.headers.authorization ?? "";
      if (!/^Bearer sk_test_\w+/.test(auth))
        throw new ApiError(401, "Invalid API Key provided: this fake takes any sk_test_ key", undefined, undefined);
      if (!match) throw new ApiError(404, `Unrecognized request URL (${method}: ${url.pathname})`);
      const key = method === "POST" ? req.headers["idempotency-key"] : undefined;
      const request = `${method} ${url.pathname} ${raw}`;
      if (typeof key === "string") {
        const seen = idempotent.get(`${auth} ${key}`);
        if (seen && seen.request !== request)
          throw new ApiError(
            400,
            "Keys for idempotent requests can only be used with the same parameters they were first used with.",
            undefined,
            undefined,
            "idempotency_error",
          );
        if (seen) {
          res
            .writeHead(seen.status, { "content-type": "application/json", "idempotent-replayed": "true" })
            .end(seen.body);
          return;
        }
      }
      // API handlers are synchronous: checking a key and recording its answer happen in one turn of
      // the event loop, so two concurrent requests with one key (two processes) make one object.
      let status = 200;
      let body: unknown;
      try {
        body = match[2](match[1]!.slice(1), form, url.searchParams);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        status = err.status;
        body = errorBody(err);
      }
      const json = JSON.stringify(body, null, 2);
      // Stripe replays the first answer to a key, errors included (but not its own 500s).
      if (typeof key === "string") idempotent.set(`${auth} ${key}`, { request, status, body: json });
      res.writeHead(status, { "content-type": "application/json", "request-id": newId("req_") }).end(json);
      return;
    }
    if (!match) throw new ApiError(404, `Not found: ${method} ${url.pathname}`);
    const out = await match[2](match[1]!.slice(1), form, url.searchParams);
    if (out && typeof out === "object" && "redirect" in out) {
      res.writeHead(303, { location: (out as Redirect).redirect }).end();
      return;
    }
    send(res, 200, out);
  }

  const errorBody = (err: ApiError) => ({
    error: {
      type: err.type,
      message: err.message,
      ...(err.code ? { code: err.code } : {}),
      ...(err.param ? { param: err.param } : {}),
    },
  });

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return res.destroy();
      if (err instanceof ApiError) send(res, err.status, errorBody(err));
      else send(res, 500, { error: { type: "api_error", message: String(err) } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  store.setUrl(base);

  return {
    url: base,
    port,
    /** The `api` of Hearth's Stripe settings (STRIPE_API_BASE=url does the same). */
    api: { host: "127.0.0.1", port, protocol: "http" as const },
    /** Every event emitted, oldest first. */
    events,
    /** Each webhook delivery's outcome (status null: the request failed). */
    deliveries: store.deliveries,
    /** The webhook body and Stripe-Signature header of an event, as Stripe would send them. */
    signed: store.signed,
    /** Keeps later events back (still recorded in `events`) until `releaseDeliveries`. */
    holdDeliveries: store.holdDeliveries,
    /** Sends the held events in order and delivers as before. */
    releaseDeliveries: store.releaseDeliveries,
    /** Starts (or stops, with null) POSTing events to a URL; earlier events are not resent. */
    setWebhookUrl: store.setWebhookUrl,
    /** Resolves when every event emitted so far has been delivered (or failed to be). */
    idle: store.idle,
    /** The stored object itself (changing it changes what the API answers, without an event). */
    object<T extends FakeObject = FakeObject>(id: string): T | undefined {
      return objects.get(id) as T | undefined;
    },
    completeCheckout,
    renew,
    endPeriod,
    cancelNow,
    cancelAtPeriodEnd,
    completeOnboarding,
    setSubscriptionStatus,
    async close() {
      await store.idle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
