import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, authPost, unwrap } from "#web/lib/api";
import { meQueryKey } from "#web/lib/session";

const factorsKey = ["account", "factors"] as const;

export const fetchFactors = () => unwrap(api.GET("/api/me/factors"));

export const factorsQueryOptions = () => queryOptions({ queryKey: factorsKey, queryFn: fetchFactors });

export function useFactors() {
  return useQuery(factorsQueryOptions());
}

function useRefreshFactors() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: factorsKey }),
      queryClient.invalidateQueries({ queryKey: meQueryKey, exact: true }),
    ]);
}

/** Step 1: a new secret (as an otpauth URI) and backup codes; not active until a code confirms it. */
export const startTwoFactor = ({ password }: { password: string }) =>
  authPost<{ totpURI: string; backupCodes: string[] }>("/two-factor/enable", { password });

export function useStartTwoFactor() {
  const refresh = useRefreshFactors();
  return useMutation({ mutationFn: startTwoFactor, onSuccess: refresh });
}

/** Step 2: a code from the app proves it holds the secret; two-step sign-in is then on. */
export const confirmTwoFactor = ({ code }: { code: string }) => authPost("/two-factor/verify-totp", { code });

export function useConfirmTwoFactor() {
  const refresh = useRefreshFactors();
  return useMutation({ mutationFn: confirmTwoFactor, onSuccess: refresh });
}

/** Step 3: the name the factor is listed under. */
export const nameTwoFactor = ({ friendlyName }: { friendlyName: string }) =>
  unwrap(api.PUT("/api/me/factors/totp", { body: { friendly_name: friendlyName } }));

export function useNameTwoFactor() {
  const refresh = useRefreshFactors();
  return useMutation({ mutationFn: nameTwoFactor, onSuccess: refresh });
}

export const disableTwoFactor = ({ password }: { password: string }) => authPost("/two-factor/disable", { password });

export function useDisableTwoFactor() {
  const refresh = useRefreshFactors();
  return useMutation({ mutationFn: disableTwoFactor, onSuccess: refresh });
}
