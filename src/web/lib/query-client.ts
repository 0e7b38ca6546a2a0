import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api";

/**
 * The query cache's rules, for the browser's one client (main.tsx) and for each first view the
 * server renders (entry-server.tsx), which asks once: a failure there leaves the page to the browser.
 */
export function createQueryClient({ server = false } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change by asking again.
        retry: (failureCount, error) =>
          !server && !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
      },
    },
  });
}
