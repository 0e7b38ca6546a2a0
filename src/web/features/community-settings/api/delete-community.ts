import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { useCommunityCache } from "./community-cache";

export const deleteCommunity = (communityId: string) =>
  unwrap(api.DELETE("/api/communities/{communityId}", { params: { path: { communityId } } }));

/**
 * Deletes the community (owner). The caller leaves its pages first and then calls `forget`, so no
 * open page refetches a community that is gone.
 */
export function useDeleteCommunity(communityId: string) {
  const cache = useCommunityCache();
  const mutation = useMutation({ mutationFn: () => deleteCommunity(communityId) });
  return { ...mutation, forget: () => cache.forget(communityId) };
}
