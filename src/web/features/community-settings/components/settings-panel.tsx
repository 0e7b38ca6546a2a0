import type { LucideIcon } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { MSG } from "#shared/messages";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { LoadingRegion } from "#web/components/ui/load-states";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import type { CommunityView } from "#web/features/communities";

/**
 * The text a failed save shows: the server's message when it is specific (a validation error, a
 * refusal, a name that looks like another community's), else SPEC §8's.
 */
export const saveErrorMessage = (error: unknown) =>
  errorMessage(error, MSG.saveSettingsFailed, ["VALIDATION", "FORBIDDEN", "CONFLICT"]);

/** The heading every settings tab opens with. */
export function PanelHeader({
  title,
  description,
  aside,
}: {
  title: string;
  description?: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <h3 className="text-lg font-bold tracking-tight text-stone-900">{title}</h3>
        {description && <p className="mt-1 text-sm text-stone-600">{description}</p>}
      </div>
      {aside}
    </div>
  );
}

/** A titled block inside a tab. */
export function PanelSection({
  title,
  description,
  children,
  className,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={cn("space-y-3", className)}>
      <div>
        <h4 className="text-sm font-semibold text-stone-900">{title}</h4>
        {description && <p className="mt-0.5 text-sm text-stone-600">{description}</p>}
      </div>
      {children}
    </section>
  );
}

/** The body of a tab; its save bar stays in view at the bottom of the scrolling pane. */
export function PanelBody({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn("flex-1 space-y-7 px-5 py-6 sm:px-8", className)}>{children}</div>;
}

/** Save button with the outcome beside it: the error, a success note that vanishes after 3 s, or "unsaved". */
export function SaveBar({
  pending,
  dirty,
  error,
  success,
  label = "Save changes",
  disabled,
  onDiscard,
}: {
  pending: boolean;
  dirty: boolean;
  error: unknown;
  success: string | null;
  label?: string;
  disabled?: boolean;
  onDiscard?: () => void;
}) {
  return (
    <div className="sticky bottom-0 z-10 flex flex-col gap-3 border-t border-stone-200 bg-white/95 px-5 py-3.5 backdrop-blur sm:flex-row sm:items-center sm:justify-between sm:px-8">
      <div className="min-w-0 flex-1" aria-live="polite">
        {error ? (
          <FormMessage tone="error" className="py-2">
            {saveErrorMessage(error)}
          </FormMessage>
        ) : success ? (
          <FormMessage tone="success" className="py-2">
            {success}
          </FormMessage>
        ) : dirty ? (
          <p className="text-sm text-stone-600">You have unsaved changes.</p>
        ) : null}
      </div>
      <div className="flex shrink-0 gap-2 max-sm:[&>*]:flex-1">
        {onDiscard && dirty && !pending && (
          <Button variant="ghost" onClick={onDiscard}>
            Discard
          </Button>
        )}
        <Button type="submit" loading={pending} disabled={!dirty || disabled}>
          {label}
        </Button>
      </div>
    </div>
  );
}

/** A tab that is one form: its heading, its fields, then the save bar. */
export function SettingsForm({
  settings: { onSubmit, saveBar },
  saveLabel,
  className = "flex min-h-full flex-col",
  children,
  ...header
}: Parameters<typeof PanelHeader>[0] & {
  /** What useSettingsForm gives: the submit handler and the save bar's state. */
  settings: { onSubmit: ComponentProps<"form">["onSubmit"]; saveBar: Parameters<typeof SaveBar>[0] };
  saveLabel?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate className={className}>
      <PanelBody>
        <PanelHeader {...header} />
        {children}
      </PanelBody>
      <SaveBar {...saveBar} label={saveLabel} />
    </form>
  );
}

/** An empty list's placeholder (no rules, no categories yet). */
export function EmptyList({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed border-stone-300 bg-white px-6 py-10 text-center">
      <Icon className="size-8 text-stone-400" aria-hidden="true" />
      <p className="mt-3 font-semibold text-stone-900">{title}</p>
      <p className="mt-1 max-w-sm text-sm text-stone-600">{children}</p>
    </div>
  );
}

/** A list's own error (too many rows), under its rows. */
export function ListError({ message }: { message?: string }) {
  return message ? <p className="text-sm text-red-700">{message}</p> : null;
}

/** Figures: a big number with its label. */
export function StatCard({
  label,
  value,
  icon,
  hint,
}: {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  hint?: ReactNode;
}) {
  return (
    <div className="rounded-xl border border-stone-200 bg-white p-4 shadow-xs">
      <div className="flex items-center gap-2 text-sm font-medium text-stone-600">
        {icon && <span className="text-brand-700 [&_svg]:size-4">{icon}</span>}
        {label}
      </div>
      <div className="mt-2 text-2xl font-bold tracking-tight text-stone-900 tabular-nums">{value}</div>
      {hint && <div className="mt-0.5 text-xs text-stone-600">{hint}</div>}
    </div>
  );
}

/** "12/30" beside a field; red at the limit. */
export function Counter({ value, max }: { value: number; max: number }) {
  return (
    <span className={cn("text-sm tabular-nums", value >= max ? "text-red-700" : "text-stone-600")}>
      {value}/{max}
    </span>
  );
}

export type SettingsTabProps = {
  community: CommunityView;
  /** Tells the dialog whether this tab holds unsaved changes (asked about on close). */
  onDirtyChange: (dirty: boolean) => void;
  /** A part of the tab to bring into view when the dialog opens on it. */
  section?: CommunitySettingsSection;
};

export type CommunitySettingsSection = "images";

/**
 * What a settings tab shows while its settings load or when they cannot be read; null once they are
 * there (the tab then renders its form).
 */
export function settingsLoadState(query: { isPending: boolean; isError: boolean; error: unknown }, label: string) {
  if (query.isPending) {
    return (
      <LoadingRegion label={label} className="space-y-3 px-5 py-6 sm:px-8">
        <div className="h-6 w-40 animate-pulse rounded bg-stone-200" />
        <div className="h-40 animate-pulse rounded-xl bg-stone-100" />
      </LoadingRegion>
    );
  }
  if (query.isError) {
    return (
      <div className="px-5 py-6 sm:px-8">
        <FormMessage tone="error">{saveErrorMessage(query.error)}</FormMessage>
      </div>
    );
  }
  return null;
}
