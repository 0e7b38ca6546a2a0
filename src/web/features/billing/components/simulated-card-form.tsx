import { CreditCard, LockKeyhole, ShieldCheck } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { cn } from "#web/lib/cn";
import { Button } from "#web/components/ui/button";
import { EmailField, Field, inputClasses, TextField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";

/** How long the simulated payment "processes" (SPEC §9: simulated payment 2 s). */
export const SIMULATED_PROCESSING_MS = 2000;

/** Card number: digits in groups of 4, at most 19 characters (SPEC §5). */
export const CARD_NUMBER_MAX = 19;

const CARD_MESSAGES = {
  email: "Please enter your email",
  emailInvalid: "Please enter a valid email",
  number: "Please enter your card number",
  numberShort: "Please enter the full card number",
  expiry: "Please enter the expiry date",
  expiryInvalid: "Enter the expiry date as MM/YY",
  expired: "This card has expired",
  cvc: "Please enter the CVC",
  cvcInvalid: "The CVC is 3 or 4 digits",
  name: "Please enter the name on the card",
} as const;

/** "4242424242424242" → "4242 4242 4242 4242" (digits only, 16 at most). */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 16);
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** "1228" → "12/28"; a leading month digit above 1 becomes "0N/". */
export function formatExpiry(value: string, previous = ""): string {
  let digits = value.replace(/\D/g, "").slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  // Deleting the slash deletes the digit before it too.
  if (previous.endsWith("/") && value.length < previous.length) return digits.slice(0, 1);
  if (digits.length >= 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return digits;
}

type Fields = { email: string; number: string; expiry: string; cvc: string; name: string };
type Errors = Partial<Record<keyof Fields, string>>;

function validate(f: Fields, withEmail: boolean, now = new Date()): Errors {
  const errors: Errors = {};
  if (withEmail) {
    if (!f.email.trim()) errors.email = CARD_MESSAGES.email;
    else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(f.email.trim())) errors.email = CARD_MESSAGES.emailInvalid;
  }
  const digits = f.number.replace(/\D/g, "");
  if (!digits) errors.number = CARD_MESSAGES.number;
  else if (digits.length < 13) errors.number = CARD_MESSAGES.numberShort;
  const expiry = /^(\d{2})\/(\d{2})$/.exec(f.expiry);
  if (!f.expiry) errors.expiry = CARD_MESSAGES.expiry;
  else if (!expiry || Number(expiry[1]) < 1 || Number(expiry[1]) > 12) errors.expiry = CARD_MESSAGES.expiryInvalid;
  else {
    const year = 2000 + Number(expiry[2]);
    const month = Number(expiry[1]);
    if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) {
      errors.expiry = CARD_MESSAGES.expired;
    }
  }
  if (!f.cvc) errors.cvc = CARD_MESSAGES.cvc;
  else if (!/^\d{3,4}$/.test(f.cvc)) errors.cvc = CARD_MESSAGES.cvcInvalid;
  if (!f.name.trim()) errors.name = CARD_MESSAGES.name;
  return errors;
}

export type SimulatedCardFormProps = {
  /** The submit button's text, e.g. "Pay $49". */
  submitLabel: string;
  /**
   * Runs after the simulated processing pause. Only the email and the name on the card are passed
   * on: card number, expiry and CVC never leave this form. A rejection ends the processing state
   * (show its message through `error`).
   */
  onPaid: (details: { email: string | null; nameOnCard: string }) => Promise<unknown> | void;
  /** An email field (the sign-up funnel); `locked` when the account already has one. */
  email?: { value: string; locked: boolean };
  /** A failure to show above the fields (for example the server's answer). */
  error?: string | null;
  onCancel?: () => void;
  processingMs?: number;
  className?: string;
};

/**
 * A simulated checkout (SPEC §4, §5): card number in groups of 4, expiry MM/YY, CVC, name on card
 * (and optionally an email), all required and checked here. Submitting shows a short processing
 * state and calls `onPaid`. It says plainly that no real charge is made, and nothing typed into the
 * card fields is sent anywhere.
 */
export function SimulatedCardForm({
  submitLabel,
  onPaid,
  email,
  error,
  onCancel,
  processingMs = SIMULATED_PROCESSING_MS,
  className,
}: SimulatedCardFormProps) {
  const id = useId();
  const [fields, setFields] = useState<Fields>({
    email: email?.value ?? "",
    number: "",
    expiry: "",
    cvc: "",
    name: "",
  });
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [processing, setProcessing] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      window.clearTimeout(timer.current);
    };
  }, []);

  const set = (name: keyof Fields, value: string) => {
    const next = { ...fields, [name]: value };
    setFields(next);
    // After a first submit, errors follow the typing.
    if (submitted) setErrors(validate(next, Boolean(email)));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (processing) return;
    setSubmitted(true);
    const found = validate(fields, Boolean(email));
    setErrors(found);
    const first = (Object.keys(found) as (keyof Fields)[])[0];
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setProcessing(true);
    await new Promise<void>((resolve) => {
      timer.current = window.setTimeout(resolve, processingMs);
    });
    if (!mounted.current) return;
    try {
      await onPaid({ email: email ? fields.email.trim() : null, nameOnCard: fields.name.trim() });
    } catch {
      // The caller shows what went wrong through `error`.
    } finally {
      if (mounted.current) setProcessing(false);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className={cn("space-y-4", className)} aria-busy={processing || undefined}>
      <FormMessage tone="info">
        <p className="font-semibold">This is a simulated checkout.</p>
        <p className="mt-0.5">
          No real charge is made and your card details never leave this page. Any card number works, for example 4242
          4242 4242 4242.
        </p>
      </FormMessage>
      {error && !processing && <FormMessage tone="error">{error}</FormMessage>}
      <fieldset disabled={processing} className="space-y-4">
        <legend className="sr-only">Card details</legend>
        {email && (
          <EmailField
            id={`${id}-email`}
            label="Email"
            value={fields.email}
            readOnly={email.locked}
            onChange={(e) => set("email", e.target.value)}
            error={errors.email}
            required
            className={email.locked ? "[&_input]:bg-stone-50 [&_input]:text-stone-600" : undefined}
          />
        )}
        <Field id={`${id}-number`} label="Card number" error={errors.number}>
          {(control) => (
            <div className="relative">
              <CreditCard
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-500"
                aria-hidden="true"
              />
              <input
                {...control}
                className={cn(inputClasses, "h-10 pl-9 tracking-wider tabular-nums")}
                inputMode="numeric"
                autoComplete="off"
                placeholder="1234 5678 9012 3456"
                maxLength={CARD_NUMBER_MAX}
                value={fields.number}
                onChange={(e) => set("number", formatCardNumber(e.target.value))}
                required
              />
            </div>
          )}
        </Field>
        <div className="grid grid-cols-2 gap-4">
          <TextField
            id={`${id}-expiry`}
            label="Expiry (MM/YY)"
            inputMode="numeric"
            autoComplete="off"
            placeholder="MM/YY"
            maxLength={5}
            value={fields.expiry}
            onChange={(e) => set("expiry", formatExpiry(e.target.value, fields.expiry))}
            error={errors.expiry}
            required
            className="[&_input]:tabular-nums"
          />
          <TextField
            id={`${id}-cvc`}
            label="CVC"
            inputMode="numeric"
            autoComplete="off"
            placeholder="123"
            maxLength={4}
            value={fields.cvc}
            onChange={(e) => set("cvc", e.target.value.replace(/\D/g, "").slice(0, 4))}
            error={errors.cvc}
            required
            className="[&_input]:tabular-nums"
          />
        </div>
        <TextField
          id={`${id}-name`}
          label="Name on card"
          autoComplete="off"
          maxLength={100}
          value={fields.name}
          onChange={(e) => set("name", e.target.value)}
          error={errors.name}
          required
        />
      </fieldset>
      <div className="flex flex-col-reverse gap-3 pt-1 sm:flex-row sm:items-center sm:justify-end">
        {onCancel && (
          <Button variant="ghost" onClick={onCancel} disabled={processing}>
            Cancel
          </Button>
        )}
        <Button type="submit" loading={processing} className="sm:min-w-40">
          {processing ? "Processing payment…" : submitLabel}
        </Button>
      </div>
      <p className="flex items-center justify-center gap-1.5 text-xs text-stone-600" aria-live="polite">
        {processing ? (
          <>
            <LockKeyhole className="size-3.5" aria-hidden="true" />
            Processing your simulated payment…
          </>
        ) : (
          <>
            <ShieldCheck className="size-3.5" aria-hidden="true" />
            Simulated payment · nothing is charged
          </>
        )}
      </p>
    </form>
  );
}
