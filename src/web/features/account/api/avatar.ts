import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { type Me, meQueryKey } from "#web/lib/session";
import { profileQueryKeys } from "#web/features/profiles";

export const uploadAvatar = (file: File) => {
  const form = new FormData();
  form.append("file", file);
  // The route takes multipart, which the OpenAPI types cannot describe.
  return unwrap(api.POST("/api/me/avatar", { body: form as never }));
};

export const removeAvatar = () => unwrap(api.DELETE("/api/me/avatar"));

function useAvatarMutation<TVariables, TData>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  avatarUrl: (data: TData) => string | null,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (data) => {
      queryClient.setQueryData<Me>(meQueryKey, (me) =>
        me?.profile ? { ...me, profile: { ...me.profile, avatar_url: avatarUrl(data) } } : me,
      );
      void queryClient.invalidateQueries({ queryKey: meQueryKey, exact: true });
      void queryClient.invalidateQueries({ queryKey: profileQueryKeys.all });
    },
  });
}

export function useUploadAvatar() {
  return useAvatarMutation(uploadAvatar, (result) => result.url);
}

export function useRemoveAvatar() {
  return useAvatarMutation(removeAvatar, () => null);
}
