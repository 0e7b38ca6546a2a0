import { useQuery } from "@tanstack/react-query";
import { publicProfileQueryOptions } from "#web/features/profiles";
import { ReportDialog } from "#web/features/reports";

export { ReportMenuItem as MessageReportItem } from "#web/features/reports";

/**
 * The report dialog for another person's message. A message is reported to the moderators of a
 * community the two people share: the first one their profile lists for the viewer.
 */
export function MessageReportDialog({
  messageId,
  username,
  onClose,
}: {
  messageId: string | null;
  username: string;
  onClose: () => void;
}) {
  const profile = useQuery({ ...publicProfileQueryOptions(username), enabled: messageId !== null });
  const communityId = profile.data?.levels[0]?.community_id;
  if (!messageId || profile.isPending) return null;
  return (
    <ReportDialog
      target="message"
      target_id={messageId}
      community_id={communityId}
      open
      onOpenChange={(open) => !open && onClose()}
    />
  );
}
