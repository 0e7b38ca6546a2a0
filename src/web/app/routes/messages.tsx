import { useParams } from "react-router";
import { MessagesPage } from "#web/features/messages";

/** The chat fills the screen below the header: no footer under it. */
export const handle = { ownFooter: true };

/** /messages — the inbox; /messages/:conversationId — one conversation beside it. */
export function MessagesRoute() {
  const { conversationId } = useParams();
  return <MessagesPage conversationId={conversationId} />;
}
