import { CircleCheck, LoaderCircle } from "lucide-react";
import type { ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { LIMITS } from "#shared/limits";
import type { UsernameStatus } from "#web/lib/username-check";
import { TextField } from "./ui/field";

/** The positive or pending part of the live username check; problems show as the field's error. */
function UsernameHint({ status }: { status: UsernameStatus }) {
  if (status.state === "checking")
    return (
      <span className="inline-flex items-center gap-1.5 text-stone-600">
        <LoaderCircle className="size-3.5 animate-spin" aria-hidden="true" />
        Checking availability…
      </span>
    );
  if (status.state === "available")
    return (
      <span className="inline-flex items-center gap-1.5 font-medium text-emerald-700">
        <CircleCheck className="size-3.5" aria-hidden="true" />
        {status.message}
      </span>
    );
  return null;
}

function usernameProblem(status: UsernameStatus): string | null {
  return status.state === "invalid" || status.state === "taken" || status.state === "error" ? status.message : null;
}

/**
 * The username input of sign-up and Edit Profile: lowercase as typed (SPEC §5), the form's own
 * error first, then the live check's problem, else its pending or positive hint.
 */
export function UsernameField({
  registration,
  status,
  formError,
  idleHint,
}: {
  registration: UseFormRegisterReturn;
  status: UsernameStatus;
  formError?: string;
  idleHint?: ReactNode;
}) {
  const error = formError ?? usernameProblem(status) ?? undefined;
  return (
    <TextField
      label="Username"
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={LIMITS.usernameMax}
      error={error}
      hint={error ? undefined : status.state === "idle" ? idleHint : <UsernameHint status={status} />}
      {...registration}
      onChange={(event) => {
        event.target.value = event.target.value.toLowerCase();
        return registration.onChange(event);
      }}
    />
  );
}
