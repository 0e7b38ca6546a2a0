import { Check, Copy, ShieldCheck, ShieldOff, Smartphone } from "lucide-react";
import QRCode from "qrcode";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { toast } from "#web/lib/toast";
import { Button } from "#web/components/ui/button";
import { PasswordField, TextField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { Spinner } from "#web/components/ui/spinner";
import { cn } from "#web/lib/cn";
import { useFlashMessage } from "#web/lib/use-flash-message";
import { shortDate } from "#shared/format";
import {
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useFactors,
  useNameTwoFactor,
  useStartTwoFactor,
} from "../api/two-factor";

type Step =
  | { name: "idle" }
  | { name: "password" }
  | { name: "scan"; totpURI: string; backupCodes: string[] }
  | { name: "codes"; backupCodes: string[] }
  | { name: "disable" };

function secretOf(totpURI: string): string {
  try {
    return new URL(totpURI).searchParams.get("secret") ?? "";
  } catch {
    return "";
  }
}

/** The QR code is drawn in the browser: the secret never leaves it for an image service. */
function useQrCode(text: string): string | null {
  const [image, setImage] = useState<{ text: string; url: string } | null>(null);
  useEffect(() => {
    let cancelled = false;
    QRCode.toDataURL(text, { margin: 1, width: 200, color: { dark: "#1c1917", light: "#ffffff" } })
      .then((url) => !cancelled && setImage({ text, url }))
      .catch((error: unknown) => console.error("QR code failed", error));
    return () => {
      cancelled = true;
    };
  }, [text]);
  return image?.text === text ? image.url : null;
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error("Could not copy. Select the text and copy it instead.");
    }
  };
  return (
    <Button variant="secondary" size="sm" onClick={copy}>
      {copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
      {copied ? "Copied" : label}
    </Button>
  );
}

export function TwoStepSection({
  enabled,
  onDirtyChange,
}: {
  enabled: boolean;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const factors = useFactors();
  const [step, setStep] = useState<Step>({ name: "idle" });
  const flash = useFlashMessage();

  useEffect(() => onDirtyChange(step.name !== "idle"), [step.name, onDirtyChange]);

  const finish = (message: string) => {
    setStep({ name: "idle" });
    flash.show(message);
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <p className="max-w-md text-sm text-stone-600">
          With two-step sign-in, logging in also asks for a code from an authenticator app on your phone, so a stolen
          password alone is not enough.
        </p>
        {step.name === "idle" &&
          (enabled ? (
            <Button variant="secondary" onClick={() => setStep({ name: "disable" })}>
              <ShieldOff className="size-4" aria-hidden="true" />
              Turn off
            </Button>
          ) : (
            <Button onClick={() => setStep({ name: "password" })}>
              <ShieldCheck className="size-4" aria-hidden="true" />
              Set up two-step sign-in
            </Button>
          ))}
      </div>

      {flash.message && <FormMessage tone="success">{flash.message}</FormMessage>}

      <div className="rounded-xl border border-stone-200">
        {factors.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading sign-in methods" />
          </div>
        ) : factors.isError ? (
          <p className="px-4 py-4 text-sm text-red-700">{factors.error.message}</p>
        ) : factors.data.factors.length === 0 ? (
          <p className="px-4 py-4 text-sm text-stone-600">No authenticator app is set up yet.</p>
        ) : (
          <ul className="divide-y divide-stone-200" aria-label="Your sign-in factors">
            {factors.data.factors.map((factor) => (
              <li key={factor.factor_type} className="flex items-center gap-3 px-4 py-3">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-stone-100 text-stone-700">
                  <Smartphone className="size-4" aria-hidden="true" />
                </span>
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-semibold text-stone-900">{factor.friendly_name}</p>
                  <p className="text-sm text-stone-600">
                    {factor.factor_type === "totp" ? "Authenticator app (TOTP)" : "Phone"}
                    {factor.created_at && ` · Added ${shortDate(factor.created_at)}`}
                  </p>
                </div>
                <span
                  className={cn(
                    "rounded-full px-2.5 py-0.5 text-xs font-semibold",
                    factor.status === "verified" ? "bg-emerald-50 text-emerald-800" : "bg-amber-50 text-amber-800",
                  )}
                >
                  {factor.status === "verified" ? "Verified" : "Not verified"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>

      {step.name === "password" && (
        <PasswordStep
          onCancel={() => setStep({ name: "idle" })}
          onStarted={(totpURI, backupCodes) => setStep({ name: "scan", totpURI, backupCodes })}
        />
      )}
      {step.name === "scan" && (
        <ScanStep
          totpURI={step.totpURI}
          onCancel={() => setStep({ name: "idle" })}
          onConfirmed={() => setStep({ name: "codes", backupCodes: step.backupCodes })}
        />
      )}
      {step.name === "codes" && (
        <BackupCodesStep backupCodes={step.backupCodes} onDone={() => finish("Two-step sign-in is on.")} />
      )}
      {step.name === "disable" && (
        <DisableStep onCancel={() => setStep({ name: "idle" })} onDisabled={() => finish("Two-step sign-in is off.")} />
      )}
    </div>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-xl bg-stone-50 p-5 ring-1 ring-stone-200">
      <h4 className="font-semibold text-stone-900">{title}</h4>
      <div className="mt-3 space-y-4">{children}</div>
    </div>
  );
}

function PasswordStep({
  onCancel,
  onStarted,
}: {
  onCancel: () => void;
  onStarted: (totpURI: string, backupCodes: string[]) => void;
}) {
  const start = useStartTwoFactor();
  return (
    <PasswordConfirmPanel
      title="Step 1 of 3: confirm it's you"
      error={start.error?.message}
      pending={start.isPending}
      submitLabel="Continue"
      onCancel={onCancel}
      onConfirm={(password) =>
        start.mutate({ password }, { onSuccess: (result) => onStarted(result.totpURI, result.backupCodes) })
      }
    />
  );
}

function ScanStep({
  totpURI,
  onCancel,
  onConfirmed,
}: {
  totpURI: string;
  onCancel: () => void;
  onConfirmed: () => void;
}) {
  const confirm = useConfirmTwoFactor();
  const qr = useQrCode(totpURI);
  const secret = secretOf(totpURI);
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.replace(/\s+/g, "");
    if (!/^\d{6}$/.test(trimmed)) return setProblem("Enter the 6-digit code from your authenticator app.");
    setProblem(null);
    confirm.mutate({ code: trimmed }, { onSuccess: onConfirmed });
  };
  return (
    <Panel title="Step 2 of 3: scan the code">
      <div className="flex flex-col gap-5 sm:flex-row">
        <div className="flex size-[200px] shrink-0 items-center justify-center self-center rounded-xl bg-white ring-1 ring-stone-200">
          {qr ? (
            <img
              src={qr}
              alt="QR code to add Hearth to your authenticator app"
              width={184}
              height={184}
              className="size-[184px]"
            />
          ) : (
            <Spinner label="Drawing QR code" />
          )}
        </div>
        <div className="min-w-0 space-y-3 text-sm text-stone-700">
          <p>Open an authenticator app (such as 1Password, Google Authenticator or Authy) and scan this QR code.</p>
          <div>
            <p id="setup-key-label" className="font-medium text-stone-900">
              Can&apos;t scan? Enter this setup key:
            </p>
            <div className="mt-1.5 flex flex-wrap items-center gap-2">
              <code
                aria-labelledby="setup-key-label"
                className="rounded-lg bg-white px-3 py-2 font-mono text-sm tracking-wider break-all text-stone-900 ring-1 ring-stone-200"
              >
                {secret}
              </code>
              <CopyButton text={secret} label="Copy key" />
            </div>
          </div>
        </div>
      </div>
      <form onSubmit={submit} noValidate className="space-y-4">
        {confirm.error && <FormMessage tone="error">{confirm.error.message}</FormMessage>}
        <TextField
          label="Code from your app"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder="123456"
          className="max-w-xs [&_input]:font-mono [&_input]:tracking-[0.3em]"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={problem}
        />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={confirm.isPending}>
            Verify and turn on
          </Button>
        </div>
      </form>
    </Panel>
  );
}

function BackupCodesStep({ backupCodes, onDone }: { backupCodes: string[]; onDone: () => void }) {
  const name = useNameTwoFactor();
  const [friendlyName, setFriendlyName] = useState("Authenticator app");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    name.mutate({ friendlyName: friendlyName.trim() || "Authenticator app" }, { onSuccess: onDone });
  };
  return (
    <Panel title="Step 3 of 3: save your backup codes">
      <FormMessage tone="success">Two-step sign-in is on. Keep these backup codes somewhere safe.</FormMessage>
      <p className="text-sm text-stone-700">
        If you lose your phone, each of these codes lets you sign in once. They are shown only now.
      </p>
      <ul
        className="grid grid-cols-2 gap-2 rounded-xl bg-white p-4 font-mono text-sm text-stone-900 ring-1 ring-stone-200 sm:grid-cols-3"
        aria-label="Backup codes"
      >
        {backupCodes.map((backupCode) => (
          <li key={backupCode}>{backupCode}</li>
        ))}
      </ul>
      <CopyButton text={backupCodes.join("\n")} label="Copy all codes" />
      <form onSubmit={submit} noValidate className="space-y-4">
        {name.error && <FormMessage tone="error">{name.error.message}</FormMessage>}
        <TextField
          label="Authenticator name"
          hint="A name to recognise this app by, such as the phone it is on."
          maxLength={60}
          className="max-w-sm"
          value={friendlyName}
          onChange={(e) => setFriendlyName(e.target.value)}
        />
        <div className="flex justify-end">
          <Button type="submit" loading={name.isPending}>
            Save and finish
          </Button>
        </div>
      </form>
    </Panel>
  );
}

function DisableStep({ onCancel, onDisabled }: { onCancel: () => void; onDisabled: () => void }) {
  const disable = useDisableTwoFactor();
  return (
    <PasswordConfirmPanel
      title="Turn off two-step sign-in"
      intro="Your account will be protected by your password alone."
      error={disable.error?.message}
      pending={disable.isPending}
      submitLabel="Turn off two-step sign-in"
      danger
      onCancel={onCancel}
      onConfirm={(password) => disable.mutate({ password }, { onSuccess: onDisabled })}
    />
  );
}

/** Asks for the account password before a change to two-step sign-in. */
function PasswordConfirmPanel({
  title,
  intro,
  error,
  pending,
  submitLabel,
  danger = false,
  onCancel,
  onConfirm,
}: {
  title: string;
  intro?: string;
  error?: string;
  pending: boolean;
  submitLabel: string;
  danger?: boolean;
  onCancel: () => void;
  onConfirm: (password: string) => void;
}) {
  const [password, setPassword] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password) onConfirm(password);
  };
  return (
    <Panel title={title}>
      <form onSubmit={submit} noValidate className="space-y-4">
        {intro && <p className="text-sm text-stone-700">{intro}</p>}
        {error && <FormMessage tone="error">{error}</FormMessage>}
        <PasswordField
          label="Your password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoFocus
        />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" variant={danger ? "danger" : undefined} loading={pending} disabled={!password}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
