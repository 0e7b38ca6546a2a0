import { MoreHorizontal, Pencil, Trash2 } from "./icons";
import { type KeyboardEvent, useState } from "react";
import { MESSAGE_LIMITS, MESSAGING_MESSAGES } from "#shared/messaging";
import { Button, buttonClasses } from "#web/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu";
import { cn } from "#web/lib/cn";
import type { MessageDto } from "../api/message-keys";
import { MessageText } from "./message-text";
import { MessageReportItem } from "./message-report-item";

const timeFormat = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit" });
export const clockTime = (iso: string) => timeFormat.format(new Date(iso));

/** Whether one's own message may still be edited (the server checks the same window). */
export const editable = (m: MessageDto, now = Date.now()) =>
  !m.deleted && m.body !== "" && now - new Date(m.created_at).getTime() < MESSAGE_LIMITS.editWindowSeconds * 1000;

/**
 * One message: a bubble (mine on the right), its image, its time when it ends a run, and a menu:
 * edit and delete for mine, report for theirs.
 */
export function MessageItem({
  message: m,
  mine,
  senderName,
  showTime,
  status,
  editing,
  onEdit,
  onSaveEdit,
  onCancelEdit,
  onDelete,
  onReport,
  saving,
}: {
  message: MessageDto;
  mine: boolean;
  senderName: string;
  /** The last of a run of messages from one person: its time shows below it. */
  showTime: boolean;
  /** Under my newest message: whether they have seen it. */
  status: "Sent" | "Seen" | null;
  editing: boolean;
  onEdit: () => void;
  onSaveEdit: (body: string) => void;
  onCancelEdit: () => void;
  onDelete: () => void;
  /** 'Report' on another person's message. */
  onReport: () => void;
  saving: boolean;
}) {
  const canEdit = mine && editable(m);
  const edited = Boolean(m.edited_at) && !m.deleted;
  const hasMenu = !m.deleted;
  return (
    <li className={cn("group flex flex-col", mine ? "items-end" : "items-start")}>
      <div className={cn("flex max-w-[85%] items-center gap-1 sm:max-w-[75%]", mine && "flex-row-reverse")}>
        {editing ? (
          <EditBox initial={m.body} onSave={onSaveEdit} onCancel={onCancelEdit} saving={saving} />
        ) : m.deleted ? (
          <p className="rounded-2xl border border-dashed border-stone-300 px-3.5 py-2 text-sm text-stone-600 italic">
            {MESSAGING_MESSAGES.deletedMessage}
          </p>
        ) : (
          <div
            className={cn(
              "min-w-0 overflow-hidden rounded-2xl text-[0.9375rem]",
              mine
                ? "rounded-br-md bg-brand-700 text-white"
                : "rounded-bl-md bg-white text-stone-900 ring-1 ring-stone-200",
            )}
          >
            {m.image_url && (
              <a href={m.image_url} target="_blank" rel="noopener noreferrer" className="block">
                <img
                  src={m.image_url}
                  alt={`Image from ${mine ? "you" : senderName}`}
                  loading="lazy"
                  decoding="async"
                  className="max-h-72 w-full bg-stone-100 object-cover"
                />
              </a>
            )}
            {m.body && (
              <div className="px-3.5 py-2">
                <MessageText text={m.body} mine={mine} />
              </div>
            )}
          </div>
        )}
        {hasMenu && !editing && (
          <DropdownMenu modal={false}>
            <DropdownMenuTrigger
              className={cn(
                buttonClasses({ variant: "ghost", size: "icon" }),
                "size-8 shrink-0 text-stone-500 sm:opacity-0 sm:group-hover:opacity-100 sm:focus-visible:opacity-100 sm:data-[state=open]:opacity-100",
              )}
              aria-label={`Message options, ${clockTime(m.created_at)}`}
            >
              <MoreHorizontal className="size-4" aria-hidden="true" />
            </DropdownMenuTrigger>
            <DropdownMenuContent align={mine ? "end" : "start"} className="min-w-44">
              {mine ? (
                <>
                  {canEdit && (
                    <DropdownMenuItem onSelect={onEdit}>
                      <Pencil aria-hidden="true" />
                      Edit
                    </DropdownMenuItem>
                  )}
                  <DropdownMenuItem
                    onSelect={onDelete}
                    className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800 [&_svg]:text-red-600"
                  >
                    <Trash2 aria-hidden="true" />
                    Delete
                  </DropdownMenuItem>
                </>
              ) : (
                <MessageReportItem onSelect={onReport} />
              )}
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </div>
      {!editing && (showTime || status || edited) && (
        <p className={cn("mt-1 flex gap-1 px-1 text-xs text-stone-600", mine ? "justify-end" : "justify-start")}>
          {[
            showTime && (
              <time key="time" dateTime={m.created_at}>
                {clockTime(m.created_at)}
              </time>
            ),
            edited && <span key="edited">Edited</span>,
            status && (
              <span key="status" className={status === "Seen" ? "font-semibold text-brand-800" : undefined}>
                {status}
              </span>
            ),
          ]
            .filter(Boolean)
            .flatMap((part, i) =>
              i === 0
                ? [part]
                : [
                    <span key={`dot-${i}`} aria-hidden="true">
                      ·
                    </span>,
                    part,
                  ],
            )}
        </p>
      )}
    </li>
  );
}

function EditBox({
  initial,
  onSave,
  onCancel,
  saving,
}: {
  initial: string;
  onSave: (body: string) => void;
  onCancel: () => void;
  saving: boolean;
}) {
  const [body, setBody] = useState(initial);
  const trimmed = body.trim();
  const save = () => {
    if (!trimmed || trimmed === initial) return trimmed ? onCancel() : undefined;
    onSave(trimmed);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Escape") {
      e.preventDefault();
      onCancel();
    } else if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      save();
    }
  };
  return (
    <div className="w-72 max-w-full rounded-2xl bg-white p-2 shadow-sm ring-1 ring-brand-300 sm:w-96">
      <label className="sr-only" htmlFor="edit-message">
        Edit message
      </label>
      <textarea
        id="edit-message"
        autoFocus
        value={body}
        maxLength={MESSAGE_LIMITS.bodyMax}
        onChange={(e) => setBody(e.target.value)}
        onKeyDown={onKeyDown}
        rows={Math.min(6, Math.max(2, body.split("\n").length))}
        className="w-full resize-none rounded-lg px-2 py-1.5 text-[0.9375rem] text-stone-900 outline-none"
      />
      <div className="flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="sm" onClick={save} loading={saving} disabled={!trimmed}>
          Save
        </Button>
      </div>
    </div>
  );
}
