import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { JOIN_MESSAGES } from "#shared/membership";
import type { JoinRequestsPage } from "../api/join-requests";
import { membershipQueryKeys } from "../api/membership-keys";
import { JoinRequestPanel, type JoinRequestPanelProps } from "./join-request-panel";
import { JoinRequestsSection } from "./join-requests-section";

// The request form's states and the Admin tab's queue as markup, from answers already in the cache.

const ID = "c0ffee00-0000-4000-8000-000000000002";

function render(element: ReactElement, seed?: (client: QueryClient) => void) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  seed?.(client);
  return renderToStaticMarkup(
    createElement(MemoryRouter, null, createElement(QueryClientProvider, { client }, element)),
  );
}

const base: JoinRequestPanelProps = {
  communityId: ID,
  communityName: "Night Owls",
  questions: ["Why join?"],
  askEmail: false,
  request: null,
  signedIn: true,
};
const request = (over: Partial<NonNullable<JoinRequestPanelProps["request"]>>) => ({
  id: "00000000-0000-4000-8000-000000000001",
  status: "pending" as const,
  created_at: "2026-11-20T10:00:00.000Z",
  decided_at: null,
  reason: null,
  retry_after: null,
  ...over,
});

describe("the request form", () => {
  it("offers to ask when there is no request, or after a withdrawal or an ended cooldown", () => {
    for (const r of [null, request({ status: "withdrawn" }), request({ status: "declined", reason: "No" })]) {
      const html = render(createElement(JoinRequestPanel, { ...base, request: r, label: "JOIN FREE" }));
      expect(html).toContain("JOIN FREE");
      expect(html).not.toContain(JOIN_MESSAGES.pendingTitle);
    }
  });

  it("shows a pending request with a way to withdraw it", () => {
    const html = render(createElement(JoinRequestPanel, { ...base, request: request({}) }));
    expect(html).toContain(JOIN_MESSAGES.pendingTitle);
    expect(html).toContain(JOIN_MESSAGES.pendingBody.replace("'", "&#x27;"));
    expect(html).toContain("Withdraw request");
    expect(html).not.toContain("ASK TO JOIN");
  });

  it("shows a decline with its reason, as text, and the day they may ask again", () => {
    const html = render(
      createElement(JoinRequestPanel, {
        ...base,
        request: request({
          status: "declined",
          reason: "<b>Full</b> this month",
          decided_at: "2026-11-21T10:00:00.000Z",
          retry_after: "2026-11-28T10:00:00.000Z",
        }),
      }),
    );
    expect(html).toContain("Your request to join Night Owls was declined");
    expect(html).toContain("&lt;b&gt;Full&lt;/b&gt; this month");
    expect(html).toContain(JOIN_MESSAGES.cooldown("November 28, 2026"));
    expect(html).not.toContain("ASK TO JOIN");
  });
});

describe("the Admin tab's requests", () => {
  it("lists each applicant's answers as text, with the count and the bulk actions", () => {
    const page: JoinRequestsPage = {
      items: [
        {
          id: "00000000-0000-4000-8000-000000000010",
          status: "pending",
          user: { user_id: "u1", username: "ada", full_name: "Ada Lovelace", avatar_url: null },
          answers: [{ question: "Why join?", answer: "<script>alert(1)</script> to learn" }],
          email: "ada@example.test",
          created_at: "2026-11-20T10:00:00.000Z",
          decided_at: null,
          reason: null,
        },
      ],
      count: 3,
      next_cursor: "next",
    };
    const html = render(createElement(JoinRequestsSection, { communityId: ID }), (client) =>
      client.setQueryData(membershipQueryKeys.requests(ID), { pages: [page], pageParams: [undefined] }),
    );
    expect(html).toContain("3 waiting");
    expect(html).toContain("Ada Lovelace");
    expect(html).toContain("ada@example.test");
    expect(html).toContain("Why join?");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; to learn");
    expect(html).not.toContain("<script>");
    expect(html).toContain("Approve selected (0)");
    expect(html).toContain("Decline selected");
    expect(html).toContain("Show more requests");
  });
});
