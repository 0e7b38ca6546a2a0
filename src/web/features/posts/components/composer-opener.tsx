import { useState } from "react";
import { toast } from "../../../lib/toast";
import { Avatar } from "../../../components/ui/avatar";
import { Dialog, DialogContent, DialogTrigger } from "../../../components/ui/dialog";
import { useMe } from "../../../lib/session";
import { type ComposerCategory, PostComposer } from "./post-composer";

/** The feed's 'Write something...' bar: opens the composer in a dialog. */
export function ComposerOpener({
  communityId,
  communityName,
  categories,
  canChooseVisibility,
}: {
  communityId: string;
  communityName: string;
  categories: readonly ComposerCategory[];
  canChooseVisibility: boolean;
}) {
  const [open, setOpen] = useState(false);
  const me = useMe();
  const name = me.data?.profile?.full_name || me.data?.user?.name || "";
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <div className="flex items-center gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-stone-200 sm:p-4">
        <Avatar src={me.data?.profile?.avatar_url} name={name} />
        <DialogTrigger className="h-11 flex-1 cursor-pointer rounded-full bg-stone-100 px-4 text-left text-stone-600 transition-colors hover:bg-stone-200/70 hover:text-stone-800">
          Write something...
        </DialogTrigger>
      </div>
      <DialogContent title="Create post" description={`Share with ${communityName}`} size="md">
        <PostComposer
          className="px-6 pt-5 pb-6 sm:px-8 sm:pb-8"
          communityId={communityId}
          categories={categories}
          canChooseVisibility={canChooseVisibility}
          autoFocus
          onPosted={(post) => {
            setOpen(false);
            if (post.is_approved) toast.success("Your post is live.");
            else toast.success("Your post was sent for approval. It will appear once a moderator approves it.");
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
