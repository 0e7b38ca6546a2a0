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

export const AUTH_DIALOG_MODES: readonly AuthDialogMode[] = ["login", "signup", "forgot"];

type Listener = (request: AuthDialogRequest) => void;
let listener: Listener | null = null;
let waiting: AuthDialogRequest | null = null;

/**
 * Opens the one auth dialog of the app shell, from anywhere. Asked before the shell's host listens
 * (a page adopted from the server runs its effects before the host's, which comes after it), the
 * request waits for the host.
 */
export function openAuthDialog(request: AuthDialogRequest): void {
  if (listener) listener(request);
  else waiting = request;
}

/** The host's subscription: it gets a request made before it listened, then every new one. */
export function onAuthDialogRequest(next: Listener): () => void {
  listener = next;
  const pending = waiting;
  waiting = null;
  if (pending) next(pending);
  return () => {
    if (listener === next) listener = null;
  };
}
