import { lazy, Suspense, useState } from "react";
import { Avatar } from "#web/components/ui/avatar";
import { useMe } from "#web/lib/session";
import type { ComposerCategory } from "./post-composer";

const loadComposer = () => import("./composer-dialog");
// The composer (its dialog, form, uploads and selects) loads when someone is about to open it.
const ComposerDialog = lazy(() => loadComposer().then((m) => ({ default: m.ComposerDialog })));

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
  const [opened, setOpened] = useState(false);
  const me = useMe();
  const name = me.data?.profile?.full_name || me.data?.user?.name || "";
  return (
    <>
      <div className="flex items-center gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-stone-200 sm:p-4">
        <Avatar src={me.data?.profile?.avatar_url} name={name} />
        <button
          type="button"
          aria-haspopup="dialog"
          aria-expanded={open}
          onPointerEnter={() => void loadComposer()}
          onFocus={() => void loadComposer()}
          onClick={() => {
            setOpened(true);
            setOpen(true);
          }}
          className="h-11 flex-1 cursor-pointer rounded-full bg-stone-100 px-4 text-left text-stone-600 transition-colors hover:bg-stone-200/70 hover:text-stone-800"
        >
          Write something...
        </button>
      </div>
      {opened && (
        <Suspense fallback={null}>
          <ComposerDialog
            open={open}
            onOpenChange={setOpen}
            communityId={communityId}
            communityName={communityName}
            categories={categories}
            canChooseVisibility={canChooseVisibility}
          />
        </Suspense>
      )}
    </>
  );
}
