import { RotateCw } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "./button";
import { FormMessage } from "./form-message";

/** A list or section that failed to load: what failed, and a way to ask again. */
export function LoadError({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  return (
    <FormMessage tone="error">
      <p>{children}</p>
      <Button variant="secondary" size="sm" className="mt-2" onClick={onRetry}>
        <RotateCw className="size-4" aria-hidden="true" />
        Try again
      </Button>
    </FormMessage>
  );
}
