/** Whether the message menu offers 'Report' (true once reports are wired in). */
export const MESSAGE_REPORTS = false;

/**
 * The slot for 'Report' on another person's message, in its menu. Reports (issue 22) plug their
 * dialog in here with the target 'message'.
 */
export function MessageReportItem({ messageId }: { messageId: string }) {
  void messageId;
  return null;
}
