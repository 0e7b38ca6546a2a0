import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type Block, invalidateMessages, messageQueryKeys } from "./message-keys";
import { request } from "./request";

export const fetchBlocks = () => request<{ blocks: Block[] }>("GET", "/api/me/blocks");

export const blocksQueryOptions = () => queryOptions({ queryKey: messageQueryKeys.blocks(), queryFn: fetchBlocks });

/** The people I blocked (Edit Profile → Privacy). */
export function useBlocks() {
  return useQuery(blocksQueryOptions());
}

export const setBlocked = (userId: string, blocked: boolean) =>
  request<unknown>(
    blocked ? "PUT" : "DELETE",
    `/api/users/${encodeURIComponent(userId)}/block`,
    blocked ? {} : undefined,
  );

/** Blocks or unblocks a person; every messages view is read again (can_send changes). */
export function useSetBlocked() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, blocked }: { userId: string; blocked: boolean }) => setBlocked(userId, blocked),
    onSettled: () => invalidateMessages(queryClient),
  });
}
