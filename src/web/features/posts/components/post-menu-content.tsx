import { Ellipsis, Pencil, Pin, PinOff, ShieldAlert, Trash2 } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useRef, useState } from "react";
import { toast } from "#web/lib/toast";
import { POST_LIMITS } from "#shared/posts";
import { ConfirmDialog } from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu";
import { inputClasses } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { Label } from "#web/components/ui/label";
import { Select } from "#web/components/ui/select";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { useDeletePost } from "../api/delete-post";
import { usePinPost } from "../api/pin-post";
import type { FeedPost } from "../api/post-keys";
import { useUpdatePost } from "../api/update-post";
import { useWarnAuthor } from "../api/warn-author";
import { ReportDialog, ReportMenuItem } from "#web/features/reports";
import type { ComposerCategory } from "./post-composer";
import { type PostMenuProps, postMenuTriggerClasses, postPermissions } from "./post-menu";

type Open = "edit" | "delete" | "warn" | "report" | null;

/**
 * The ⋯ menu of a post: Edit Post and Delete Post for its author; Pin Post / Unpin Post, Delete
 * Post and Warn User for owners, admins and moderators. Nothing when none applies.
 */
export function PostMenuContent({
  post,
  role,
  viewerId,
  categories,
  authorName,
  onDeleted,
  defaultOpen,
}: PostMenuProps) {
  const allowed = postPermissions(post, role, viewerId);
  const [open, setOpen] = useState<Open>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const pin = usePinPost(post.id);
  const remove = useDeletePost(post.id);
  if (!allowed.edit && !allowed.pin && !allowed.delete && !allowed.warn && !allowed.report) return null;

  const onPin = () => {
    const pinned = !post.is_pinned;
    pin.mutate(pinned, {
      onSuccess: () => toast.success(pinned ? "Post pinned to the top of the feed." : "Post unpinned."),
      onError: (error) =>
        toast.error(errorMessage(error, "The post could not be pinned. Please try again.", ["CONFLICT", "FORBIDDEN"])),
    });
  };
  const onDelete = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        toast.success("Post deleted.");
        onDeleted?.();
      },
      onError: (error) =>
        toast.error(errorMessage(error, "The post could not be deleted. Please try again.", ["FORBIDDEN"])),
    });
  // Dialogs opened from the menu hand focus back to the ⋯ button when they close.
  const returnFocus = (event: Event) => {
    event.preventDefault();
    trigger.current?.focus();
  };

  return (
    <>
      <DropdownMenu modal={false} defaultOpen={defaultOpen}>
        <DropdownMenuTrigger ref={trigger} aria-label="Post options" className={postMenuTriggerClasses}>
          <Ellipsis className="size-5" aria-hidden="true" />
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          {allowed.edit && (
            <DropdownMenuItem onSelect={() => setOpen("edit")}>
              <Pencil aria-hidden="true" />
              Edit Post
            </DropdownMenuItem>
          )}
          {allowed.pin && (
            <DropdownMenuItem onSelect={onPin} disabled={pin.isPending}>
              {post.is_pinned ? <PinOff aria-hidden="true" /> : <Pin aria-hidden="true" />}
              {post.is_pinned ? "Unpin Post" : "Pin Post"}
            </DropdownMenuItem>
          )}
          {allowed.warn && (
            <DropdownMenuItem onSelect={() => setOpen("warn")}>
              <ShieldAlert aria-hidden="true" />
              Warn User
            </DropdownMenuItem>
          )}
          {allowed.report && <ReportMenuItem onSelect={() => setOpen("report")} label="Report Post" />}
          {allowed.delete && (
            <>
              {(allowed.edit || allowed.pin || allowed.warn || allowed.report) && <DropdownMenuSeparator />}
              <DropdownMenuItem
                onSelect={() => setOpen("delete")}
                className="text-red-700! data-[highlighted]:bg-red-50! data-[highlighted]:text-red-800! [&_svg]:text-red-600!"
              >
                <Trash2 aria-hidden="true" />
                Delete Post
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>

      {allowed.edit && (
        <EditPostDialog
          post={post}
          categories={categories}
          open={open === "edit"}
          onOpenChange={(o) => setOpen(o ? "edit" : null)}
          onCloseAutoFocus={returnFocus}
        />
      )}
      {allowed.warn && (
        <WarnDialog
          postId={post.id}
          authorName={authorName}
          open={open === "warn"}
          onOpenChange={(o) => setOpen(o ? "warn" : null)}
          onCloseAutoFocus={returnFocus}
        />
      )}
      {allowed.report && (
        <ReportDialog
          target="post"
          target_id={post.id}
          open={open === "report"}
          onOpenChange={(o) => setOpen(o ? "report" : null)}
          onCloseAutoFocus={returnFocus}
        />
      )}
      <ConfirmDialog
        open={open === "delete"}
        onOpenChange={(o) => setOpen(o ? "delete" : null)}
        title="Delete this post?"
        description={
          post.author?.user_id === viewerId
            ? "It will be removed from the community with its comments. This cannot be undone."
            : `${authorName}'s post will be removed from the community with its comments. This cannot be undone.`
        }
        confirmLabel="Delete Post"
        destructive
        onConfirm={onDelete}
      />
    </>
  );
}

const NO_CATEGORY = "none";

function EditPostDialog({
  post,
  categories,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  post: FeedPost;
  categories: readonly ComposerCategory[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Edit post" size="md" onCloseAutoFocus={onCloseAutoFocus}>
        {/* Mounted per opening, so the form starts from the post as it is now. */}
        {open && <EditPostForm post={post} categories={categories} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function EditPostForm({
  post,
  categories,
  onDone,
}: {
  post: FeedPost;
  categories: readonly ComposerCategory[];
  onDone: () => void;
}) {
  const id = useId();
  const [content, setContent] = useState(post.content);
  const [categoryId, setCategoryId] = useState(post.category_id ?? NO_CATEGORY);
  const update = useUpdatePost(post.id);
  const needsText = post.type === "text" || post.type === "link";
  const blank = content.trim() === "";
  const tooLong = content.length > POST_LIMITS.contentMax;
  const unchanged = content === post.content && categoryId === (post.category_id ?? NO_CATEGORY);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if ((needsText && blank) || tooLong || update.isPending) return;
    if (unchanged) return onDone();
    update.mutate(
      {
        ...(content !== post.content ? { content } : {}),
        ...(categoryId !== (post.category_id ?? NO_CATEGORY)
          ? { category_id: categoryId === NO_CATEGORY ? null : categoryId }
          : {}),
      },
      {
        onSuccess: () => {
          toast.success("Post updated.");
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4 px-6 pt-5 pb-6 sm:px-8 sm:pb-8" noValidate>
      <div>
        <Label htmlFor={`${id}-content`} className="mb-1.5">
          Post content
        </Label>
        <textarea
          id={`${id}-content`}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          rows={6}
          autoFocus
          aria-invalid={tooLong || undefined}
          className={cn(inputClasses, "min-h-32 resize-y py-3 text-base leading-relaxed sm:text-sm")}
        />
      </div>
      {categories.length > 0 && (
        <div>
          <Label htmlFor={`${id}-category`} className="mb-1.5">
            Category
          </Label>
          <Select
            id={`${id}-category`}
            value={categoryId}
            onValueChange={setCategoryId}
            options={[
              { value: NO_CATEGORY, label: "No category" },
              ...categories.map((c) => ({ value: c.id, label: c.emoji ? `${c.emoji} ${c.name}` : c.name })),
            ]}
          />
        </div>
      )}
      <FormFooter
        error={
          update.isError &&
          errorMessage(update.error, "Your changes could not be saved. Please try again.", ["VALIDATION", "FORBIDDEN"])
        }
        onCancel={onDone}
      >
        <Button type="submit" disabled={(needsText && blank) || tooLong} loading={update.isPending}>
          Save changes
        </Button>
      </FormFooter>
    </form>
  );
}

function WarnDialog({
  postId,
  authorName,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  postId: string;
  authorName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={`Warn ${authorName}`}
        description="They get a notification with your reason, linked to this post."
        onCloseAutoFocus={onCloseAutoFocus}
      >
        {open && <WarnForm postId={postId} authorName={authorName} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function WarnForm({ postId, authorName, onDone }: { postId: string; authorName: string; onDone: () => void }) {
  const id = useId();
  const [reason, setReason] = useState("");
  const warn = useWarnAuthor(postId);
  const max = POST_LIMITS.warningReasonMax;
  const blank = reason.trim() === "";

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (blank || reason.length > max || warn.isPending) return;
    warn.mutate(reason.trim(), {
      onSuccess: () => {
        toast.success(`Warning sent to ${authorName}.`);
        onDone();
      },
    });
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4 px-6 pt-5 pb-6 sm:px-8 sm:pb-8" noValidate>
      <div>
        <div className="mb-1.5 flex items-baseline justify-between gap-3">
          <Label htmlFor={`${id}-reason`}>Reason</Label>
          <span id={`${id}-count`} className="text-xs text-stone-600 tabular-nums">
            {reason.length}/{max}
          </span>
        </div>
        <textarea
          id={`${id}-reason`}
          value={reason}
          onChange={(e) => setReason(e.target.value.slice(0, max))}
          rows={4}
          autoFocus
          maxLength={max}
          aria-describedby={`${id}-count`}
          placeholder="For example: please keep promotions to the Promotions category."
          className={cn(inputClasses, "min-h-24 resize-y py-2")}
        />
      </div>
      <FormFooter
        error={
          warn.isError &&
          errorMessage(warn.error, "The warning could not be sent. Please try again.", [
            "VALIDATION",
            "BAD_REQUEST",
            "FORBIDDEN",
          ])
        }
        onCancel={onDone}
      >
        <Button type="submit" variant="danger" disabled={blank} loading={warn.isPending}>
          Send warning
        </Button>
      </FormFooter>
    </form>
  );
}

/** The end of a dialog's form: why the last attempt failed, if it did, then Cancel and the form's own button. */
function FormFooter({ error, onCancel, children }: { error: ReactNode; onCancel: () => void; children: ReactNode }) {
  return (
    <>
      {error && <FormMessage tone="error">{error}</FormMessage>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        {children}
      </div>
    </>
  );
}
