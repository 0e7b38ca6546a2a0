import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router/dom";
import { ErrorBoundary } from "#web/components/error-fallback";
import { ToasterHost } from "#web/components/toaster-host";
import { queryClient } from "#web/lib/query-client";
import { router } from "./router";

export function App() {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <ToasterHost />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
