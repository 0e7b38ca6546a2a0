import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { invalidateMessages, patchConversationMessages } from "./message-keys";

export const editMessage = (id: string, body: string) =>
  unwrap(api.PATCH("/api/messages/{id}", { params: { path: { id } }, body: { body } }));

export const deleteMessage = (id: string) => unwrap(api.DELETE("/api/messages/{id}", { params: { path: { id } } }));

/** Edits one's own message; the change shows at once and the conversation is read again. */
export function useEditMessage(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: string }) => editMessage(id, body),
    onSuccess: (_, { id, body }) =>
      patchConversationMessages(queryClient, conversationId, (m) =>
        m.id === id ? { ...m, body, edited_at: new Date().toISOString() } : m,
      ),
    onSettled: () => invalidateMessages(queryClient),
  });
}

export function useDeleteMessage(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteMessage(id),
    onSuccess: (_, id) =>
      patchConversationMessages(queryClient, conversationId, (m) =>
        m.id === id ? { ...m, body: "", image_url: null, deleted: true } : m,
      ),
    onSettled: () => invalidateMessages(queryClient),
  });
}
