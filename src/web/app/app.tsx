import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, StrictMode, useLayoutEffect } from "react";
import { ErrorBoundary } from "#web/components/error-fallback";
import { ToasterHost } from "#web/components/toaster-host";

/**
 * The app around its router: the browser's `RouterProvider` (main.tsx), or the server's
 * `StaticRouterProvider` for a page's first view (entry-server.tsx). Both render this same tree (the
 * ids React makes follow its shape), so the browser adopts the server's HTML instead of drawing it
 * again. `onDrawn` runs once the browser has drawn or adopted the page.
 */
export function App({
  queryClient,
  children,
  onDrawn,
}: {
  queryClient: QueryClient;
  children: ReactNode;
  onDrawn?: () => void;
}) {
  return (
    <StrictMode>
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          {children}
          <ToasterHost />
        </QueryClientProvider>
      </ErrorBoundary>
      <Drawn onDrawn={onDrawn} />
    </StrictMode>
  );
}

/**
 * Renders nothing; tells when the page is on screen and answering. A layout effect: it runs before
 * every component's effects, one of which may focus an element (a #post- link) in the adopted page.
 */
function Drawn({ onDrawn }: { onDrawn?: () => void }) {
  useLayoutEffect(() => onDrawn?.(), [onDrawn]);
  return null;
}
