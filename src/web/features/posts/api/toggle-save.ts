import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { patchPost, postQueryKeys } from "./post-keys";

export const toggleSave = (postId: string) =>
  unwrap(api.POST("/api/posts/{postId}/save", { params: { path: { postId } } }));

/** Save or unsave at once (optimistic); a failed call flips it back. */
export function useToggleSave(postId: string) {
  const queryClient = useQueryClient();
  const mutationKey = postQueryKeys.save(postId);
  const flip = () => patchPost(queryClient, postId, (p) => ({ ...p, saved: !p.saved }));
  return useMutation({
    mutationKey,
    mutationFn: () => toggleSave(postId),
    onMutate: flip,
    onError: flip,
    onSuccess: (result) => {
      if (queryClient.isMutating({ mutationKey }) > 1) return;
      patchPost(queryClient, postId, (p) => ({ ...p, saved: result.saved }));
    },
  });
}
