import { LogIn } from "lucide-react";
import type { ReactNode } from "react";
import { type AuthDialogRequest, openAuthDialog } from "#web/lib/auth-dialog-events";
import { EmptyState } from "./empty-state";
import { Button } from "./ui/button";

/** A page's signed-out state: what signing in shows here, and a Log in button that leads back. */
export function SignInPrompt({
  request,
  title,
  children,
}: {
  request: AuthDialogRequest;
  title: string;
  children: ReactNode;
}) {
  return (
    <EmptyState
      icon={LogIn}
      title={title}
      action={
        <Button onClick={() => openAuthDialog(request)}>
          <LogIn className="size-4" aria-hidden="true" />
          Log in
        </Button>
      }
    >
      {children}
    </EmptyState>
  );
}
