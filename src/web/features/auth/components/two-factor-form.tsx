import { type FormEvent, useState } from "react";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { TextField } from "#web/components/ui/field";
import { useVerifySecondFactor } from "../api/verify-two-factor";

/** The second step of a sign-in with two-step verification on. */
export function TwoFactorForm({ onSignedIn, onBack }: { onSignedIn: () => Promise<void>; onBack: () => void }) {
  const verify = useVerifySecondFactor();
  const [method, setMethod] = useState<"totp" | "backup">("totp");
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.replace(/\s+/g, "");
    if (method === "totp" && !/^\d{6}$/.test(trimmed)) {
      setProblem("Enter the 6-digit code from your authenticator app.");
      return;
    }
    if (method === "backup" && trimmed.length < 4) {
      setProblem("Enter one of your backup codes.");
      return;
    }
    setProblem(null);
    try {
      await verify.mutateAsync({ code: trimmed, method });
      await onSignedIn();
    } catch {
      // shown from verify.error
    }
  };

  const switchMethod = () => {
    setMethod((m) => (m === "totp" ? "backup" : "totp"));
    setCode("");
    setProblem(null);
    verify.reset();
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {verify.error && <FormMessage tone="error">{verify.error.message}</FormMessage>}
      {method === "totp" ? (
        <TextField
          key="totp"
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          placeholder="123456"
          autoFocus
          className="[&_input]:text-center [&_input]:font-mono [&_input]:text-lg [&_input]:tracking-[0.4em]"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={problem}
        />
      ) : (
        <TextField
          key="backup"
          label="Backup code"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          className="[&_input]:font-mono"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={problem}
          hint="Each backup code works once."
        />
      )}
      <Button type="submit" size="lg" className="w-full" loading={verify.isPending}>
        Verify
      </Button>
      <div className="flex items-center justify-between text-sm">
        <button type="button" className="cursor-pointer font-medium text-stone-700 hover:underline" onClick={onBack}>
          Back to log in
        </button>
        <button
          type="button"
          className="cursor-pointer font-semibold text-brand-800 hover:underline"
          onClick={switchMethod}
        >
          {method === "totp" ? "Use a backup code instead" : "Use your authenticator app"}
        </button>
      </div>
    </form>
  );
}
