import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ConversationDto, invalidateMessages } from "./message-keys";
import { request } from "./request";

export const openConversation = (userId: string) =>
  request<ConversationDto>("POST", "/api/conversations", { user_id: userId });

/** Finds or starts the conversation with a person. */
export function useOpenConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: openConversation,
    onSuccess: () => invalidateMessages(queryClient),
  });
}
