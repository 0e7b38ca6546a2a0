import { toast } from "#web/lib/toast";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { type ComposerCategory, PostComposer } from "./post-composer";

/** The composer in its dialog; loaded when someone first opens it (composer-opener.tsx). */
export function ComposerDialog({
  open,
  onOpenChange,
  communityId,
  communityName,
  categories,
  canChooseVisibility,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  communityId: string;
  communityName: string;
  categories: readonly ComposerCategory[];
  canChooseVisibility: boolean;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Create post" description={`Share with ${communityName}`} size="md">
        <PostComposer
          className="px-6 pt-5 pb-6 sm:px-8 sm:pb-8"
          communityId={communityId}
          categories={categories}
          canChooseVisibility={canChooseVisibility}
          autoFocus
          onPosted={(post) => {
            onOpenChange(false);
            if (post.is_approved) toast.success("Your post is live.");
            else toast.success("Your post was sent for approval. It will appear once a moderator approves it.");
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
