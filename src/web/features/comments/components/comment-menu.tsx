import { MoreHorizontal, Pencil, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu";
import { ReportDialog, ReportMenuItem } from "#web/features/reports";

/** A comment's ⋯ menu: Edit for its author, Delete for its author and moderators, Report for others signed in. */
export function CommentMenu({
  authorName,
  onEdit,
  onDelete,
  reportId,
}: {
  authorName: string;
  onEdit?: () => void;
  onDelete?: () => void;
  /** The comment's id when the viewer may report it. */
  reportId?: string;
}) {
  const [reporting, setReporting] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger
          ref={trigger}
          className="-mt-1 -mr-2 flex size-7 shrink-0 cursor-pointer items-center justify-center rounded-full text-stone-500 transition-colors hover:bg-stone-200 hover:text-stone-800 data-[state=open]:bg-stone-200"
          aria-label={`Actions for ${authorName}'s comment`}
        >
          <MoreHorizontal className="size-4" aria-hidden="true" />
        </DropdownMenuTrigger>
        <DropdownMenuContent className="min-w-40">
          {onEdit && (
            <DropdownMenuItem onSelect={onEdit}>
              <Pencil aria-hidden="true" />
              Edit
            </DropdownMenuItem>
          )}
          {reportId && <ReportMenuItem onSelect={() => setReporting(true)} />}
          {onDelete && (
            <DropdownMenuItem
              onSelect={onDelete}
              className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800 [&_svg]:text-red-600"
            >
              <Trash2 aria-hidden="true" />
              Delete
            </DropdownMenuItem>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      {reportId && (
        <ReportDialog
          target="comment"
          target_id={reportId}
          open={reporting}
          onOpenChange={setReporting}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            trigger.current?.focus();
          }}
        />
      )}
    </>
  );
}
