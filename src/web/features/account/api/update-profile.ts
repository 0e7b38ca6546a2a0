import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { type Me, meQueryKey } from "#web/lib/session";
import { profileQueryKeys } from "#web/features/profiles";

export type ProfileChanges = NonNullable<
  paths["/api/me/profile"]["patch"]["requestBody"]
>["content"]["application/json"];

export const updateProfile = (body: ProfileChanges) => unwrap(api.PATCH("/api/me/profile", { body }));

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => {
      queryClient.setQueryData<Me>(meQueryKey, (me) => (me ? { ...me, profile } : me));
      void queryClient.invalidateQueries({ queryKey: profileQueryKeys.all });
    },
  });
}
