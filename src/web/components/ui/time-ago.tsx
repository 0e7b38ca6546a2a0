import { useContext } from "react";
import { fullDateTime, timeAgo } from "#shared/format";
import { FirstViewContext, useAdopted } from "#web/lib/first-view-context";

/**
 * When something happened as SPEC §9's time text ("3h ago"), with the full date and time on hover.
 * In a page drawn on the server the text is as of when it was drawn, and the hover text (in the
 * visitor's time zone) comes once the browser has adopted the page: both then follow its clock.
 */
export function TimeAgo({ date, className }: { date: string; className?: string }) {
  const adopted = useAdopted();
  const { drawnAt } = useContext(FirstViewContext);
  const asOf = adopted || drawnAt === null ? undefined : new Date(drawnAt);
  return (
    <time dateTime={date} title={adopted ? fullDateTime(date) : undefined} className={className}>
      {timeAgo(date, asOf)}
    </time>
  );
}
