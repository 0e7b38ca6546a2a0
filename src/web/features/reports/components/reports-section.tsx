import {
  ArrowRightIcon as ArrowRight,
  BanIcon as Ban,
  CheckIcon as Check,
  EyeOffIcon as EyeOff,
  FlagIcon as Flag,
  ShieldAlertIcon as ShieldAlert,
  ShieldCheckIcon as ShieldCheck,
  TrashIcon as Trash2,
} from "./icons";
import { type FormEvent, useId, useState } from "react";
import { Link } from "react-router";
import {
  REPORT_ACTION_LABELS,
  REPORT_LIMITS,
  REPORT_MESSAGES,
  REPORT_REASON_LABELS,
  REPORT_TARGET_LABELS,
  type ReportAction,
} from "#shared/reports";
import { Avatar } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { inputClasses } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { Label } from "#web/components/ui/label";
import { LoadingRegion } from "#web/components/ui/load-states";
import { TimeAgo } from "#web/components/ui/time-ago";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { toast } from "#web/lib/toast";
import { type ReportCase, useDecideReport, useReportCount, useReportQueue } from "../api/report-queue";

type Person = NonNullable<ReportCase["author"]>;
const nameOf = (p: Person | null) => (p ? p.full_name || p.username : "Former member");

/** What the toast says once an action is taken. */
function doneText(action: ReportAction, what: string) {
  if (action === "dismiss") return `Report dismissed. The ${what} stays up.`;
  if (action === "remove") return `The ${what} was removed. Its author was told why.`;
  if (action === "warn") return "Warning sent to the author.";
  return "The author was banned from the community.";
}

/**
 * The Admin tab's reports (owners, admins, moderators): each reported item with its author and every
 * report on it, oldest first; dismiss, or remove, warn or ban with a reason the author is told.
 */
export function ReportsSection({ communityId, mayBan }: { communityId: string; mayBan: boolean }) {
  const queue = useReportQueue(communityId);
  const decide = useDecideReport(communityId);
  const [asking, setAsking] = useState<{ item: ReportCase; action: Exclude<ReportAction, "dismiss"> } | null>(null);

  const counted = useReportCount(communityId);
  // Open cases, oldest first (decided ones leave the queue; the server sends them after the open ones).
  const items = (queue.data?.pages.flatMap((p) => p.items) ?? [])
    .filter((c) => c.status === "open")
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  const count = counted.data?.open ?? items.length;

  const act = (item: ReportCase, action: ReportAction, reason = "") =>
    decide.mutate(
      { caseId: item.id, action, reason },
      {
        onSuccess: () => {
          toast.success(doneText(action, REPORT_TARGET_LABELS[item.target]));
          setAsking(null);
        },
        onError: (e) =>
          toast.error(
            errorMessage(e, "The decision could not be saved. Please try again.", ["VALIDATION", "FORBIDDEN"]),
          ),
      },
    );

  return (
    <section
      aria-labelledby="admin-reports"
      className="rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-200 sm:p-6"
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id="admin-reports" className="text-lg font-bold tracking-tight text-stone-900">
          Reports
        </h2>
        {!queue.isPending && (
          <span
            className={cn(
              "inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-sm font-semibold",
              count > 0 ? "bg-red-50 text-red-800 ring-1 ring-red-200" : "bg-stone-100 text-stone-700",
            )}
          >
            <Flag className="size-3.5" aria-hidden="true" />
            {count} open
          </span>
        )}
      </div>

      {queue.isPending ? (
        <LoadingRegion label="Loading reports" className="space-y-3">
          {[0, 1].map((n) => (
            <div key={n} className="h-40 animate-pulse rounded-2xl bg-stone-200/60" />
          ))}
        </LoadingRegion>
      ) : queue.isError ? (
        <FormMessage tone="error">{errorMessage(queue.error, "Failed to load reports.", ["FORBIDDEN"])}</FormMessage>
      ) : items.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-stone-600">
          <ShieldCheck className="size-4 text-emerald-600" aria-hidden="true" />
          {REPORT_MESSAGES.emptyQueue}
        </p>
      ) : (
        <>
          <ul className="space-y-4">
            {items.map((item) => (
              <CaseCard
                key={item.id}
                item={item}
                mayBan={mayBan}
                busy={decide.isPending && decide.variables.caseId === item.id}
                onDismiss={() => act(item, "dismiss")}
                onAsk={(action) => setAsking({ item, action })}
              />
            ))}
          </ul>
          {queue.hasNextPage && (
            <Button
              variant="ghost"
              className="mt-3 w-full"
              loading={queue.isFetchingNextPage}
              onClick={() => void queue.fetchNextPage()}
            >
              Show more reports
            </Button>
          )}
        </>
      )}

      <Dialog open={asking !== null} onOpenChange={(o) => !o && setAsking(null)}>
        {asking && (
          <DialogContent
            title={askTitle(asking.action, asking.item)}
            description="The author is told this reason. Reporters only learn the outcome, never who acted."
          >
            <ReasonForm
              action={asking.action}
              pending={decide.isPending}
              onCancel={() => setAsking(null)}
              onSubmit={(reason) => act(asking.item, asking.action, reason)}
            />
          </DialogContent>
        )}
      </Dialog>
    </section>
  );
}

function askTitle(action: Exclude<ReportAction, "dismiss">, item: ReportCase) {
  const what = REPORT_TARGET_LABELS[item.target];
  const who = nameOf(item.author);
  if (action === "remove") return `Remove this ${what}?`;
  if (action === "warn") return `Warn ${who}?`;
  return `Ban ${who}?`;
}

function ReasonForm({
  action,
  pending,
  onCancel,
  onSubmit,
}: {
  action: Exclude<ReportAction, "dismiss">;
  pending: boolean;
  onCancel: () => void;
  onSubmit: (reason: string) => void;
}) {
  const id = useId();
  const [reason, setReason] = useState("");
  const [tried, setTried] = useState(false);
  const max = REPORT_LIMITS.actionReasonMax;
  const error = reason.trim() === "" ? REPORT_MESSAGES.reasonRequired : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (error || pending) return;
    onSubmit(reason.trim());
  };
  return (
    <form onSubmit={submit} className="space-y-4 px-6 pt-5 pb-6 sm:px-8 sm:pb-8" noValidate>
      <div>
        <div className="mb-1.5 flex items-baseline justify-between gap-3">
          <Label htmlFor={`${id}-reason`}>Reason for the author</Label>
          <span id={`${id}-count`} className="text-xs text-stone-600 tabular-nums">
            {reason.length}/{max}
          </span>
        </div>
        <textarea
          id={`${id}-reason`}
          value={reason}
          onChange={(e) => setReason(e.target.value.slice(0, max))}
          rows={4}
          autoFocus
          maxLength={max}
          required
          aria-invalid={tried && error ? true : undefined}
          aria-describedby={[`${id}-count`, tried && error ? `${id}-error` : null].filter(Boolean).join(" ")}
          placeholder="For example: rule 2, no self-promotion outside the Promotions category."
          className={cn(inputClasses, "min-h-24 resize-y py-2")}
        />
        {tried && error && (
          <p id={`${id}-error`} className="mt-1.5 text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" loading={pending}>
          {REPORT_ACTION_LABELS[action]}
        </Button>
      </div>
    </form>
  );
}

function CaseCard({
  item,
  mayBan,
  busy,
  onDismiss,
  onAsk,
}: {
  item: ReportCase;
  mayBan: boolean;
  busy: boolean;
  onDismiss: () => void;
  onAsk: (action: Exclude<ReportAction, "dismiss">) => void;
}) {
  const headingId = `report-case-${item.id}`;
  const what = REPORT_TARGET_LABELS[item.target];
  const author = item.author;
  const authorName = nameOf(author);
  const removable = item.target !== "profile";
  return (
    <li>
      <article aria-labelledby={headingId} className="rounded-2xl border border-stone-200 p-4 sm:p-5">
        <header className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="text-sm font-semibold text-stone-900">
            <span className="capitalize">{what}</span> by {authorName}
          </h3>
          <span className="inline-flex items-center gap-1 rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800 ring-1 ring-red-200">
            <Flag className="size-3" aria-hidden="true" />
            {item.report_count} {item.report_count === 1 ? "report" : "reports"}
          </span>
          {item.hidden && (
            <span className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300">
              <EyeOff className="size-3" aria-hidden="true" />
              {REPORT_MESSAGES.hiddenPendingReview}
            </span>
          )}
          <span className="ml-auto text-xs text-stone-600">
            First reported <TimeAgo date={item.created_at} />
          </span>
        </header>

        <div className="mt-3 flex items-center gap-3">
          <Avatar src={author?.avatar_url} name={authorName} size="sm" />
          <p className="min-w-0 text-sm">
            {author ? (
              <Link
                to={`/u/${encodeURIComponent(author.username)}`}
                className="font-semibold text-stone-900 hover:underline"
              >
                {authorName}
              </Link>
            ) : (
              <span className="font-semibold text-stone-900">{authorName}</span>
            )}
            {author && <span className="text-stone-600"> @{author.username}</span>}
          </p>
        </div>

        <ReportedContent item={item} />

        <div className="mt-4">
          <h4 className="text-xs font-semibold tracking-wide text-stone-600 uppercase">Reports</h4>
          <ul className="mt-2 divide-y divide-stone-100">
            {item.reports.map((r, i) => {
              const reporter = nameOf(r.reporter);
              return (
                <li key={`${r.reporter.id}-${i}`} className="flex items-start gap-2.5 py-2 first:pt-0 last:pb-0">
                  <Avatar src={r.reporter.avatar_url} name={reporter} size="sm" className="mt-0.5 size-7" />
                  <div className="min-w-0 flex-1 text-sm">
                    <p>
                      <span className="font-semibold text-stone-900">{reporter}</span>
                      <span className="text-stone-600"> reported it as </span>
                      <span className="font-semibold text-stone-900">{REPORT_REASON_LABELS[r.reason]}</span>
                      <span className="text-stone-600">
                        {" "}
                        · <TimeAgo date={r.created_at} />
                      </span>
                    </p>
                    {r.text && <p className="mt-0.5 break-words whitespace-pre-line text-stone-800">“{r.text}”</p>}
                  </div>
                </li>
              );
            })}
          </ul>
        </div>

        <div className="mt-4 flex flex-wrap gap-2 border-t border-stone-100 pt-4">
          <Button
            size="sm"
            variant="secondary"
            disabled={busy}
            onClick={onDismiss}
            aria-label={`Dismiss the reports on ${authorName}'s ${what}`}
          >
            <Check className="size-4" aria-hidden="true" />
            {REPORT_ACTION_LABELS.dismiss}
          </Button>
          {removable && (
            <Button
              size="sm"
              variant="danger"
              disabled={busy}
              onClick={() => onAsk("remove")}
              aria-label={`Remove ${authorName}'s ${what}`}
            >
              <Trash2 className="size-4" aria-hidden="true" />
              {REPORT_ACTION_LABELS.remove}
            </Button>
          )}
          {author && (
            <Button
              size="sm"
              variant="secondary"
              disabled={busy}
              onClick={() => onAsk("warn")}
              aria-label={`${REPORT_ACTION_LABELS.warn} (${authorName})`}
            >
              <ShieldAlert className="size-4" aria-hidden="true" />
              {REPORT_ACTION_LABELS.warn}
            </Button>
          )}
          {author && mayBan && (
            <Button
              size="sm"
              variant="secondary"
              disabled={busy}
              onClick={() => onAsk("ban")}
              aria-label={`${REPORT_ACTION_LABELS.ban} (${authorName})`}
            >
              <Ban className="size-4" aria-hidden="true" />
              {REPORT_ACTION_LABELS.ban}
            </Button>
          )}
        </div>
      </article>
    </li>
  );
}

/** The item as the moderators may see it; a message with the few messages around it, the reported one marked. */
function ReportedContent({ item }: { item: ReportCase }) {
  const { content } = item;
  const senderName = (senderId: string) => {
    if (item.author && senderId === item.author.id) return nameOf(item.author);
    const reporter = item.reports.find((r) => r.reporter.id === senderId)?.reporter;
    return reporter ? nameOf(reporter) : "The other person";
  };
  return (
    <div className="mt-3 rounded-xl bg-stone-50 px-4 py-3 ring-1 ring-stone-200">
      {content.context && content.context.length > 0 ? (
        <ol className="space-y-2" aria-label="The reported message and the messages around it">
          {content.context.map((m) => (
            <li
              key={m.id}
              className={cn(
                "rounded-lg px-3 py-2 text-sm",
                m.reported ? "bg-white ring-2 ring-red-300" : "text-stone-700",
              )}
            >
              <p className="flex flex-wrap items-center gap-x-2 text-xs text-stone-600">
                <span className="font-semibold text-stone-800">{senderName(m.sender_id)}</span>
                <TimeAgo date={m.created_at} />
                {m.reported && (
                  <span className="rounded-full bg-red-50 px-1.5 py-0.5 font-semibold text-red-800">Reported</span>
                )}
              </p>
              <p className="mt-0.5 break-words whitespace-pre-line">{m.body}</p>
            </li>
          ))}
        </ol>
      ) : (
        <>
          {content.title && <p className="font-semibold text-stone-900">{content.title}</p>}
          {content.body ? (
            <p className="line-clamp-6 text-sm break-words whitespace-pre-line text-stone-800">{content.body}</p>
          ) : (
            <p className="text-sm text-stone-600 italic">No text</p>
          )}
        </>
      )}
      {content.href && (
        <Link
          to={content.href}
          className="mt-2 inline-flex items-center gap-1 text-sm font-semibold text-brand-800 hover:underline"
        >
          Open the {REPORT_TARGET_LABELS[item.target]}
          <ArrowRight className="size-3.5" aria-hidden="true" />
        </Link>
      )}
    </div>
  );
}
