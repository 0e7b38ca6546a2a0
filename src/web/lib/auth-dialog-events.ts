export type AuthDialogMode = "login" | "signup" | "forgot";

export type AuthDialogRequest = {
  mode: AuthDialogMode;
  /** A path to go to after success; always passed through safeRedirectPath before use. */
  redirect?: string;
  /** Prefills the email field. */
  email?: string;
  /** A short note shown above the form (for example why sign-in is needed). */
  message?: string;
};

export const AUTH_DIALOG_EVENT = "hearth:auth-dialog";

export const AUTH_DIALOG_MODES: readonly AuthDialogMode[] = ["login", "signup", "forgot"];

/** Opens the one auth dialog of the app shell, from anywhere. */
export function openAuthDialog(detail: AuthDialogRequest): void {
  window.dispatchEvent(new CustomEvent<AuthDialogRequest>(AUTH_DIALOG_EVENT, { detail }));
}
