import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { invalidateMessages } from "./message-keys";

export const openConversation = (userId: string) =>
  unwrap(api.POST("/api/conversations", { body: { user_id: userId } }));

/** Finds or starts the conversation with a person. */
export function useOpenConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: openConversation,
    onSuccess: () => invalidateMessages(queryClient),
  });
}
