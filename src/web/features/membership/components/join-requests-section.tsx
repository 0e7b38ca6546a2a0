import { Check, Inbox, X } from "lucide-react";
import { useState } from "react";
import { JOIN_MESSAGES, JOIN_REQUEST_LIMITS } from "#shared/membership";
import { Avatar } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { TextareaField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { LoadingRegion } from "#web/components/ui/load-states";
import { TimeAgo } from "#web/components/ui/time-ago";
import { errorMessage } from "#web/lib/api";
import { toast } from "#web/lib/toast";
import { type DecideResult, type JoinRequestItem, useDecideJoinRequests, useJoinRequests } from "../api/join-requests";

/** What a decision did, in one line for the toast. */
function resultText(r: DecideResult) {
  const parts = [
    r.approved > 0 ? `${r.approved} approved` : null,
    r.declined > 0 ? `${r.declined} declined` : null,
    r.skipped > 0 ? `${r.skipped} skipped (already answered)` : null,
  ].filter(Boolean);
  return parts.join(", ") || "Nothing to do";
}

/**
 * The Admin tab's requests (owner, admin): each applicant with their answers as text, oldest first,
 * chosen by checkbox; approve or decline one or the chosen ones, a decline with an optional reason.
 */
export function JoinRequestsSection({ communityId }: { communityId: string }) {
  const list = useJoinRequests(communityId);
  const decide = useDecideJoinRequests(communityId);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [declining, setDeclining] = useState<string[] | null>(null);
  const [reason, setReason] = useState("");

  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const count = list.data?.pages[0]?.count ?? 0;
  const chosenIds = items.filter((r) => chosen.has(r.id)).map((r) => r.id);
  const allChosen = items.length > 0 && chosenIds.length === items.length;

  const run = (ids: string[], decision: "approve" | "decline", why?: string) =>
    decide.mutate(
      { ids: ids.slice(0, JOIN_REQUEST_LIMITS.bulkMax), decision, ...(why?.trim() ? { reason: why.trim() } : {}) },
      {
        onSuccess: (r) => {
          toast.success(resultText(r));
          setChosen(new Set());
          setDeclining(null);
          setReason("");
        },
        onError: (e) => toast.error(errorMessage(e, "Could not save the decision. Please try again.", ["VALIDATION"])),
      },
    );

  const toggle = (id: string) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <section
      aria-labelledby="admin-requests"
      className="rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-200 sm:p-6"
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id="admin-requests" className="text-lg font-bold tracking-tight text-stone-900">
          Requests
        </h2>
        <span className="inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-sm font-semibold text-amber-900">
          {count} waiting
        </span>
      </div>

      {list.isPending ? (
        <LoadingRegion label="Loading requests" className="space-y-3">
          {[0, 1].map((n) => (
            <div key={n} className="h-24 animate-pulse rounded-2xl bg-stone-200/60" />
          ))}
        </LoadingRegion>
      ) : list.isError ? (
        <FormMessage tone="error">{errorMessage(list.error, "Failed to load requests.", ["FORBIDDEN"])}</FormMessage>
      ) : items.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-stone-600">
          <Inbox className="size-4" aria-hidden="true" />
          No requests waiting.
        </p>
      ) : (
        <>
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <label className="flex items-center gap-2 text-sm text-stone-700">
              <input
                type="checkbox"
                className="size-4 accent-brand-700"
                checked={allChosen}
                onChange={() => setChosen(allChosen ? new Set() : new Set(items.map((r) => r.id)))}
              />
              Select all shown
            </label>
            <div className="flex gap-2">
              <Button
                size="sm"
                disabled={chosenIds.length === 0 || decide.isPending}
                onClick={() => run(chosenIds, "approve")}
              >
                <Check className="size-4" aria-hidden="true" />
                Approve selected ({chosenIds.length})
              </Button>
              <Button
                size="sm"
                variant="secondary"
                disabled={chosenIds.length === 0 || decide.isPending}
                onClick={() => setDeclining(chosenIds)}
              >
                <X className="size-4" aria-hidden="true" />
                Decline selected
              </Button>
            </div>
          </div>
          <ul className="space-y-3">
            {items.map((r) => (
              <RequestRow
                key={r.id}
                request={r}
                checked={chosen.has(r.id)}
                onToggle={() => toggle(r.id)}
                busy={decide.isPending}
                onApprove={() => run([r.id], "approve")}
                onDecline={() => setDeclining([r.id])}
              />
            ))}
          </ul>
          {list.hasNextPage && (
            <Button
              variant="ghost"
              className="mt-3 w-full"
              loading={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
            >
              Show more requests
            </Button>
          )}
        </>
      )}

      <Dialog open={declining !== null} onOpenChange={(o) => !o && setDeclining(null)}>
        {declining && (
          <DialogContent
            title={declining.length === 1 ? "Decline this request?" : `Decline ${declining.length} requests?`}
            description="They are told by notification and email, with your reason if you give one."
          >
            <form
              className="space-y-4 px-6 pt-4 pb-6 sm:px-8 sm:pb-8"
              onSubmit={(e) => {
                e.preventDefault();
                if (reason.length > JOIN_REQUEST_LIMITS.reasonMax) return;
                run(declining, "decline", reason);
              }}
            >
              <TextareaField
                label="Reason (optional)"
                maxLength={JOIN_REQUEST_LIMITS.reasonMax}
                value={reason}
                error={reason.length > JOIN_REQUEST_LIMITS.reasonMax ? JOIN_MESSAGES.reasonTooLong : null}
                onChange={(e) => setReason(e.target.value)}
              />
              <div className="flex justify-end gap-2">
                <Button type="button" variant="ghost" onClick={() => setDeclining(null)}>
                  Cancel
                </Button>
                <Button type="submit" variant="danger" loading={decide.isPending}>
                  Decline
                </Button>
              </div>
            </form>
          </DialogContent>
        )}
      </Dialog>
    </section>
  );
}

function RequestRow({
  request: r,
  checked,
  onToggle,
  busy,
  onApprove,
  onDecline,
}: {
  request: JoinRequestItem;
  checked: boolean;
  onToggle: () => void;
  busy: boolean;
  onApprove: () => void;
  onDecline: () => void;
}) {
  const name = r.user.full_name || r.user.username;
  return (
    <li className="rounded-2xl border border-stone-200 p-4">
      <div className="flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-2.5 size-4 accent-brand-700"
          checked={checked}
          onChange={onToggle}
          aria-label={`Select the request from ${name}`}
        />
        <Avatar src={r.user.avatar_url} name={name} size="sm" />
        <div className="min-w-0 flex-1">
          <p className="text-sm">
            <span className="font-semibold text-stone-900">{name}</span>{" "}
            <span className="text-stone-600">
              @{r.user.username} · <TimeAgo date={r.created_at} />
            </span>
          </p>
          {r.email && <p className="mt-0.5 text-sm break-all text-stone-700">{r.email}</p>}
          {r.answers.length > 0 && (
            <dl className="mt-2 space-y-2">
              {r.answers.map((a, i) => (
                <div key={i}>
                  <dt className="text-xs font-semibold text-stone-600">{a.question}</dt>
                  <dd className="text-sm break-words whitespace-pre-line text-stone-900">{a.answer}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
        <div className="flex shrink-0 flex-col gap-2 sm:flex-row">
          <Button size="sm" disabled={busy} onClick={onApprove} aria-label={`Approve ${name}`}>
            Approve
          </Button>
          <Button size="sm" variant="secondary" disabled={busy} onClick={onDecline} aria-label={`Decline ${name}`}>
            Decline
          </Button>
        </div>
      </div>
    </li>
  );
}
