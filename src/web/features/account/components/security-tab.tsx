import { CalendarDays, KeyRound, ShieldCheck } from "lucide-react";
import { type ReactNode, useCallback, useEffect, useState } from "react";
import { CalendarFeedSection } from "./calendar-feed-section";
import { ChangePasswordForm } from "./change-password-form";
import { TwoStepSection } from "./two-step-section";

export function SecurityTab({
  email,
  twoFactorEnabled,
  onDirtyChange,
}: {
  email: string;
  twoFactorEnabled: boolean;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const [passwordDirty, setPasswordDirty] = useState(false);
  const [twoStepDirty, setTwoStepDirty] = useState(false);
  useEffect(() => onDirtyChange(passwordDirty || twoStepDirty), [passwordDirty, twoStepDirty, onDirtyChange]);
  return (
    <div className="space-y-8 px-6 py-6 sm:px-8">
      <Section icon={<KeyRound className="size-4" aria-hidden="true" />} title="Change password">
        <ChangePasswordForm
          email={email}
          onDirtyChange={useCallback((dirty: boolean) => setPasswordDirty(dirty), [])}
        />
      </Section>
      <Section icon={<ShieldCheck className="size-4" aria-hidden="true" />} title="Two-step sign-in">
        <TwoStepSection
          enabled={twoFactorEnabled}
          onDirtyChange={useCallback((dirty: boolean) => setTwoStepDirty(dirty), [])}
        />
      </Section>
      <Section icon={<CalendarDays className="size-4" aria-hidden="true" />} title="Calendar feed">
        <CalendarFeedSection />
      </Section>
    </div>
  );
}

function Section({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section className="space-y-4">
      <h3 className="flex items-center gap-2 text-base font-semibold text-stone-900">
        <span className="flex size-7 items-center justify-center rounded-lg bg-brand-50 text-brand-800">{icon}</span>
        {title}
      </h3>
      {children}
    </section>
  );
}
