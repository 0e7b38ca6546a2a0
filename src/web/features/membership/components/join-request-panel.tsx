import { Send } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useLocation } from "react-router";
import { toast } from "#web/lib/toast";
import { JOIN_MESSAGES, JOIN_REQUEST_LIMITS } from "#shared/membership";
import { applySchema, type MyJoinRequest } from "#shared/membership.schemas";
import { MSG } from "#shared/messages";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { EmailField, TextareaField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { errorMessage } from "#web/lib/api";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { useApplyToJoin, useWithdrawJoinRequest } from "../api/my-join-request";

export type JoinRequestPanelProps = {
  communityId: string;
  communityName: string;
  questions: readonly string[];
  askEmail: boolean;
  /** The viewer's latest request, as the community view or the request form gives it. */
  request: MyJoinRequest | null;
  signedIn: boolean;
  /** The big button's label (the landing's JOIN). */
  label?: string;
};

const day = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/**
 * A community that takes requests: the JOIN button opens the questions; afterwards the request's
 * state (waiting, declined with its reason and the day they may ask again). Answers are shown as
 * typed, as text.
 */
export function JoinRequestPanel(props: JoinRequestPanelProps) {
  const { communityId, communityName, request, signedIn, label = "ASK TO JOIN" } = props;
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const withdraw = useWithdrawJoinRequest(communityId);

  if (request?.status === "pending") {
    return (
      <div className="space-y-3" aria-live="polite">
        <FormMessage tone="info">
          <strong className="block font-semibold">{JOIN_MESSAGES.pendingTitle}</strong>
          {JOIN_MESSAGES.pendingBody}
        </FormMessage>
        <Button
          variant="secondary"
          className="w-full"
          loading={withdraw.isPending}
          onClick={() =>
            withdraw.mutate(undefined, {
              onSuccess: () => toast.success("Request withdrawn"),
              onError: (e) => toast.error(errorMessage(e, MSG.joinFailed, ["BAD_REQUEST"])),
            })
          }
        >
          Withdraw request
        </Button>
      </div>
    );
  }

  if (request?.status === "approved") {
    return (
      <FormMessage tone="success">
        <strong className="block font-semibold">{JOIN_MESSAGES.approvedTitle(communityName)}</strong>
        {JOIN_MESSAGES.approvedCheckoutBody}
      </FormMessage>
    );
  }

  if (request?.status === "declined" && request.retry_after) {
    return (
      <div aria-live="polite">
        <FormMessage tone="error">
          <strong className="block font-semibold">{JOIN_MESSAGES.declinedTitle(communityName)}</strong>
          {request.reason && <span className="block whitespace-pre-line">{request.reason}</span>}
          <span className="mt-1 block">{JOIN_MESSAGES.cooldown(day(request.retry_after))}</span>
        </FormMessage>
      </div>
    );
  }

  const start = () => {
    if (!signedIn) {
      openAuthDialog({
        mode: "login",
        redirect: location.pathname + location.search,
        message: "Log in to ask to join this community.",
      });
      return;
    }
    setOpen(true);
  };

  return (
    <>
      <Button size="lg" className="w-full tracking-wide" onClick={start}>
        {label}
      </Button>
      <p className="mt-3 text-center text-xs text-stone-600">An admin reviews each request.</p>
      <Dialog open={open} onOpenChange={setOpen}>
        {open && <JoinRequestDialog {...props} onDone={() => setOpen(false)} />}
      </Dialog>
    </>
  );
}

function JoinRequestDialog({
  communityId,
  communityName,
  questions,
  askEmail,
  onDone,
}: JoinRequestPanelProps & { onDone: () => void }) {
  const apply = useApplyToJoin(communityId);
  const [answers, setAnswers] = useState<string[]>(() => questions.map(() => ""));
  const [email, setEmail] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { answers, ...(askEmail || email ? { email: email.trim() || undefined } : {}) };
    const parsed = applySchema.safeParse(body);
    const found: Record<string, string> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path.join(".");
        found[key] ??= issue.message;
      }
    }
    if (askEmail && !email.trim()) found.email ??= JOIN_MESSAGES.emailRequired;
    setErrors(found);
    if (Object.keys(found).length > 0 || !parsed.success) return;
    apply.mutate(
      { answers: parsed.data.answers, ...(askEmail ? { email: parsed.data.email } : {}) },
      {
        onSuccess: (made) => {
          onDone();
          if (made.joined) toast.success(JOIN_MESSAGES.approvedTitle(communityName));
          else if (made.request.status === "approved") toast.success(JOIN_MESSAGES.approvedCheckoutBody);
          else toast.success(JOIN_MESSAGES.pendingTitle);
        },
      },
    );
  };

  return (
    <DialogContent
      title={`Ask to join ${communityName}`}
      description={questions.length > 0 ? "Answer the questions below. An admin reviews each request." : undefined}
      size="md"
    >
      <form onSubmit={submit} noValidate className="space-y-4 px-6 pt-4 pb-6 sm:px-8 sm:pb-8">
        {questions.map((question, i) => (
          <TextareaField
            key={i}
            label={question}
            maxLength={JOIN_REQUEST_LIMITS.answerMax}
            value={answers[i]}
            error={errors[`answers.${i}`]}
            onChange={(e) => setAnswers((a) => a.map((v, j) => (j === i ? e.target.value : v)))}
          />
        ))}
        {askEmail && (
          <EmailField
            label="Your email"
            value={email}
            error={errors.email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
        {apply.error ? (
          <FormMessage tone="error">
            {errorMessage(apply.error, MSG.joinFailed, ["VALIDATION", "CONFLICT", "FORBIDDEN", "BAD_REQUEST"])}
          </FormMessage>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="ghost" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={apply.isPending}>
            <Send className="size-4" aria-hidden="true" />
            Send request
          </Button>
        </div>
      </form>
    </DialogContent>
  );
}
