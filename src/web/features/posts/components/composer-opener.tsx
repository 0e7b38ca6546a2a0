import { Lock } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { LEVEL_MESSAGES, levelName, levelReached } from "#shared/levels";
import type { CommunityRole } from "#shared/roles";
import { Avatar } from "#web/components/ui/avatar";
import { useMe } from "#web/lib/session";
import type { ComposerCategory } from "./post-composer";

const loadComposer = () => import("./composer-dialog");
// The composer (its dialog, form, uploads and selects) loads when someone is about to open it.
const ComposerDialog = lazy(() => loadComposer().then((m) => ({ default: m.ComposerDialog })));

/** The community's minimum level to post and the viewer's role and level there. */
export type PostLevelGate = {
  role: CommunityRole | null;
  level: number;
  required: number;
  names: readonly string[] | null;
};

/**
 * The feed's 'Write something...' bar: opens the composer in a dialog. Below the community's
 * minimum level to post it says what unlocks posting instead (the server refuses the post too).
 */
export function ComposerOpener({
  communityId,
  communityName,
  categories,
  canChooseVisibility,
  levelGate,
}: {
  communityId: string;
  communityName: string;
  categories: readonly ComposerCategory[];
  canChooseVisibility: boolean;
  levelGate?: PostLevelGate;
}) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const me = useMe();
  const name = me.data?.profile?.full_name || me.data?.user?.name || "";
  if (levelGate && !levelReached(levelGate.role, levelGate.level, levelGate.required)) {
    return (
      <div className="flex items-center gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-stone-200 sm:p-4">
        <Avatar src={me.data?.profile?.avatar_url} name={name} />
        <p className="flex h-11 flex-1 items-center gap-2 rounded-full bg-stone-100 px-4 text-sm text-stone-700">
          <Lock className="size-4 shrink-0 text-stone-500" aria-hidden="true" />
          <span>
            <span className="font-semibold">
              {LEVEL_MESSAGES.postLocked(levelGate.required, levelName(levelGate.names, levelGate.required))}
            </span>
            <span className="max-sm:hidden">. You are at level {levelGate.level}; you can still comment.</span>
          </span>
        </p>
      </div>
    );
  }
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
