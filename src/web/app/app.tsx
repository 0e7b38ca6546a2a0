import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router/dom";
import { Toaster } from "sonner";
import { ErrorBoundary } from "../components/error-fallback";
import { queryClient } from "../lib/query-client";
import { router } from "./router";

export function App() {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <Toaster position="bottom-right" richColors closeButton toastOptions={{ duration: 4000 }} />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
