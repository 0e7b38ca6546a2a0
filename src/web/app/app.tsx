import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router/dom";
import { ErrorBoundary } from "../components/error-fallback";
import { ToasterHost } from "../components/toaster-host";
import { queryClient } from "../lib/query-client";
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
