import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { invalidateMessages, messageQueryKeys } from "./message-keys";

export const fetchBlocks = () => unwrap(api.GET("/api/me/blocks"));

export const blocksQueryOptions = () => queryOptions({ queryKey: messageQueryKeys.blocks(), queryFn: fetchBlocks });

/** The people I blocked (Edit Profile → Privacy). */
export function useBlocks() {
  return useQuery(blocksQueryOptions());
}

export const setBlocked = (userId: string, blocked: boolean) => {
  const params = { path: { userId } };
  return unwrap(
    blocked ? api.PUT("/api/users/{userId}/block", { params }) : api.DELETE("/api/users/{userId}/block", { params }),
  );
};

/** Blocks or unblocks a person; every messages view is read again (can_send changes). */
export function useSetBlocked() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, blocked }: { userId: string; blocked: boolean }) => setBlocked(userId, blocked),
    onSettled: () => invalidateMessages(queryClient),
  });
}
