import { fullDateTime, timeAgo } from "#shared/format";

/** When something happened as SPEC §9's time text ("3h ago"), with the full date and time on hover. */
export function TimeAgo({ date, className }: { date: string; className?: string }) {
  return (
    <time dateTime={date} title={fullDateTime(date)} className={className}>
      {timeAgo(date)}
    </time>
  );
}
