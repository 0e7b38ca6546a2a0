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
        <Toaster
          position="bottom-right"
          closeButton
          toastOptions={{
            duration: 4000,
            classNames: {
              toast: "!rounded-xl !border-stone-200 !text-stone-900 !shadow-lg",
              success: "[&_[data-icon]]:!text-emerald-700",
              error: "[&_[data-icon]]:!text-red-700",
            },
          }}
        />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
