import { CircleCheck, LoaderCircle } from "lucide-react";
import type { UsernameStatus } from "../lib/username-check";

/** The positive or pending part of the live username check; problems show as the field's error. */
export function UsernameHint({ status }: { status: UsernameStatus }) {
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

export function usernameProblem(status: UsernameStatus): string | null {
  return status.state === "invalid" || status.state === "taken" || status.state === "error" ? status.message : null;
}
