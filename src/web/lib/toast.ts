import type * as Sonner from "sonner";
import type { ExternalToast } from "sonner";

/**
 * Toasts without sonner in the first page's JavaScript: the library loads on the first toast, and
 * the toaster (components/toaster-host.tsx) mounts then. Sonner replays toasts that were raised
 * before its toaster subscribed, so nothing is lost while it loads.
 */
type Kind = "success" | "error" | "info";

let sonner: Promise<typeof Sonner> | undefined;
const listeners = new Set<() => void>();
let wanted = false;

export const loadSonner = () => (sonner ??= import("sonner"));

/** Whether a toast was ever raised in this tab (the toaster mounts from then on). */
export const toasterWanted = () => wanted;
export function onToasterWanted(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(kind: Kind, message: string, options?: ExternalToast): void {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  void loadSonner().then(({ toast: sonnerToast }) => sonnerToast[kind](message, options));
}

export const toast = {
  success: (message: string, options?: ExternalToast) => show("success", message, options),
  error: (message: string, options?: ExternalToast) => show("error", message, options),
  info: (message: string, options?: ExternalToast) => show("info", message, options),
};
