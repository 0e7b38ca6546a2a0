import { useMutation, useQueryClient } from "@tanstack/react-query";
import { messageQueryKeys } from "./message-keys";
import { api, unwrap } from "#web/lib/api";

export const markConversationRead = (conversationId: string) =>
  unwrap(api.POST("/api/conversations/{id}/read", { params: { path: { id: conversationId } }, body: {} }));

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
