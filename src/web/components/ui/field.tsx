import { Eye, EyeOff } from "lucide-react";
import { type ComponentProps, type ReactNode, useId, useState } from "react";
import { cn } from "#web/lib/cn";
import { Label } from "./label";

export const inputClasses = cn(
  "block w-full rounded-lg border border-stone-300 bg-white px-3 text-sm text-stone-900 shadow-xs transition-colors",
  "placeholder:text-stone-500 hover:border-stone-400",
  "focus:border-brand-700 focus:ring-3 focus:ring-brand-600/25 focus:outline-none focus-visible:outline-none",
  "aria-[invalid=true]:border-red-600 aria-[invalid=true]:focus:ring-red-600/20",
  "disabled:cursor-not-allowed disabled:bg-stone-100 disabled:text-stone-500",
);

type ControlProps = { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean };

export type FieldProps = {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  /** Shown at the right of the label (a link, a counter). */
  labelAside?: ReactNode;
  /** Shown at the right under the control (a counter). */
  aside?: ReactNode;
  className?: string;
  id?: string;
  children: (control: ControlProps) => ReactNode;
};

/** Label, control, hint and error, wired together for assistive technology. */
export function Field({ label, error, hint, labelAside, aside, className, id: givenId, children }: FieldProps) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <div className="mb-1.5 flex items-baseline justify-between gap-3">
        <Label htmlFor={id}>{label}</Label>
        {labelAside}
      </div>
      {children({ id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined })}
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0" aria-live="polite">
          {error && (
            <p id={errorId} className="mt-1.5 text-sm text-red-700">
              {error}
            </p>
          )}
          {hint && (
            <div id={hintId} className="mt-1.5 text-sm text-stone-600">
              {hint}
            </div>
          )}
        </div>
        {aside && <div className="mt-1.5 shrink-0">{aside}</div>}
      </div>
    </div>
  );
}

type InputFieldProps = Omit<FieldProps, "children"> & Omit<ComponentProps<"input">, "id">;

/** Separates the props of the field's frame (label, error, hint…) from those of its control. */
function splitFieldProps<T extends Omit<FieldProps, "children">>(props: T) {
  const { label, error, hint, labelAside, aside, className, id, ...control } = props;
  return [{ label, error, hint, labelAside, aside, className, id }, control] as const;
}

export function TextField(props: InputFieldProps) {
  const [field, input] = splitFieldProps(props);
  return (
    <Field {...field}>{(control) => <input className={cn(inputClasses, "h-10")} {...control} {...input} />}</Field>
  );
}

/** An email input with the attributes browsers and password managers expect. */
export function EmailField(props: Omit<InputFieldProps, "type">) {
  return <TextField type="email" autoComplete="email" inputMode="email" {...props} />;
}

export function PasswordField(props: Omit<InputFieldProps, "type">) {
  const [field, input] = splitFieldProps(props);
  const [visible, setVisible] = useState(false);
  return (
    <Field {...field}>
      {(control) => (
        <div className="relative">
          <input
            className={cn(inputClasses, "h-10 pr-10")}
            type={visible ? "text" : "password"}
            {...control}
            {...input}
          />
          <button
            type="button"
            className="absolute inset-y-0 right-0 flex w-10 cursor-pointer items-center justify-center rounded-r-lg text-stone-500 hover:text-stone-800"
            onClick={() => setVisible((v) => !v)}
            aria-label="Show password"
            aria-pressed={visible}
          >
            {visible ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
          </button>
        </div>
      )}
    </Field>
  );
}

/** A price in US dollars: a "$" before the number, and an optional unit after it ("per month"). */
export function PriceField({
  suffix,
  symbol = "$",
  ...props
}: Omit<InputFieldProps, "type"> & { suffix?: string; /** The currency's sign before the amount. */ symbol?: string }) {
  const [field, input] = splitFieldProps(props);
  const affix = "pointer-events-none absolute inset-y-0 flex items-center text-sm text-stone-500";
  return (
    <Field {...field}>
      {(control) => (
        <div className="relative">
          <span className={cn(affix, "left-3")}>{symbol}</span>
          <input
            type="number"
            inputMode="decimal"
            step={0.01}
            className={cn(inputClasses, "h-10 pl-7 tabular-nums", suffix && "pr-20")}
            {...control}
            {...input}
          />
          {suffix && <span className={cn(affix, "right-3")}>{suffix}</span>}
        </div>
      )}
    </Field>
  );
}

type TextareaFieldProps = Omit<FieldProps, "children"> & Omit<ComponentProps<"textarea">, "id">;

export function TextareaField(props: TextareaFieldProps) {
  const [field, textarea] = splitFieldProps(props);
  return (
    <Field {...field}>
      {(control) => <textarea className={cn(inputClasses, "min-h-24 resize-y py-2")} {...control} {...textarea} />}
    </Field>
  );
}
