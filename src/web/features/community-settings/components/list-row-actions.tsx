import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
import { Button } from "#web/components/ui/button";

/** Move up, move down and remove, for one row of an ordered list. */
export function ListRowActions({
  what,
  index,
  count,
  onMove,
  onRemove,
}: {
  /** Names the row for assistive technology ("rule 2", "category Events"). */
  what: string;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
}) {
  return (
    <div className="flex shrink-0 items-center">
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Move ${what} up`}
        disabled={index === 0}
        onClick={() => onMove(index, index - 1)}
      >
        <ArrowUp className="size-4" aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Move ${what} down`}
        disabled={index === count - 1}
        onClick={() => onMove(index, index + 1)}
      >
        <ArrowDown className="size-4" aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Remove ${what}`}
        className="text-stone-500 hover:bg-red-50 hover:text-red-700"
        onClick={() => onRemove(index)}
      >
        <Trash2 className="size-4" aria-hidden="true" />
      </Button>
    </div>
  );
}
