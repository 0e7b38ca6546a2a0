import { useMutation, useQueryClient } from "@tanstack/react-query";
import { messageQueryKeys } from "./message-keys";
import { request } from "./request";

export const markConversationRead = (conversationId: string) =>
  request<unknown>("POST", `/api/conversations/${encodeURIComponent(conversationId)}/read`, {});

/** Marks an open conversation read; the badge and the inbox's dot follow. */
export function useMarkRead(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => markConversationRead(conversationId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: messageQueryKeys.unread() });
      void queryClient.invalidateQueries({ queryKey: messageQueryKeys.inboxes() });
    },
  });
}
