import { queryOptions, useQuery } from "@tanstack/react-query";
import { LIMITS } from "#shared/limits";
import { MSG } from "#shared/messages";
import { USERNAME_RE, normalizeUsername } from "#shared/validation";
import { ApiError, api, unwrap } from "./api";
import { useDebouncedValue } from "./use-debounced-value";

export const fetchUsernameAvailability = (username: string) =>
  unwrap(api.GET("/api/profiles/username-available", { params: { query: { username } } }));

export const usernameAvailabilityQueryOptions = (username: string) =>
  queryOptions({
    queryKey: ["username-available", username] as const,
    queryFn: () => fetchUsernameAvailability(username),
    staleTime: 15_000,
    retry: false,
  });

export type UsernameStatus =
  | { state: "idle"; message: null }
  | { state: "checking"; message: null }
  | { state: "invalid" | "taken" | "error"; message: string }
  | { state: "available"; message: string };

/**
 * Live username check (SPEC §5): 500 ms after typing stops; `unchanged` (the user's current
 * username) is never checked.
 */
export function useUsernameCheck(value: string, unchanged?: string): UsernameStatus {
  const normalized = normalizeUsername(value);
  const settled = useDebouncedValue(normalized, LIMITS.usernameCheckDelayMs);
  const skip = normalized === "" || normalized === unchanged;
  const valid = USERNAME_RE.test(settled);
  const query = useQuery({
    ...usernameAvailabilityQueryOptions(settled),
    enabled: !skip && valid && settled === normalized,
  });

  if (skip) return { state: "idle", message: null };
  if (settled !== normalized) return { state: "checking", message: null };
  if (!valid) return { state: "invalid", message: MSG.usernameInvalid };
  if (query.isError) {
    const invalid = query.error instanceof ApiError && query.error.code === "VALIDATION";
    return invalid
      ? { state: "invalid", message: MSG.usernameInvalid }
      : { state: "error", message: MSG.usernameCheckError };
  }
  if (!query.data) return { state: "checking", message: null };
  return query.data.available
    ? { state: "available", message: MSG.usernameAvailable }
    : { state: "taken", message: MSG.usernameTaken };
}
