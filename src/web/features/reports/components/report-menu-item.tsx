import { FlagIcon as Flag } from "./icons";
import { DropdownMenuItem } from "#web/components/ui/dropdown-menu";

/** 'Report' in a ⋯ menu; onSelect opens a `ReportDialog` rendered outside the menu. */
export function ReportMenuItem({ onSelect, label = "Report" }: { onSelect: () => void; label?: string }) {
  return (
    <DropdownMenuItem onSelect={onSelect}>
      <Flag aria-hidden="true" />
      {label}
    </DropdownMenuItem>
  );
}
