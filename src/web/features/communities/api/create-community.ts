import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "./get-community";

export type CreateCommunityInput = paths["/api/communities"]["post"]["requestBody"]["content"]["application/json"];

export const createCommunity = (body: CreateCommunityInput) => unwrap(api.POST("/api/communities", { body }));

/** Creates a community (the caller becomes its owner); every directory list is refreshed. */
export function useCreateCommunityMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCommunity,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: communityQueryKeys.directories() }),
  });
}
