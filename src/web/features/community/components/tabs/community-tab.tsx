import { Suspense } from "react";
import { lazyPart } from "#web/lib/lazy-part";
import { MIN_LEVEL } from "#shared/levels";
import { can, isManager } from "#shared/roles";
import type { CommunityView } from "#web/features/communities";
import { ComposerOpener, PostFeed } from "#web/features/posts";

// Only moderators review posts here (owners and admins use the Admin tab): its code loads for them.
const ModeratorPendingApprovals = lazyPart("ModeratorPendingApprovals", () =>
  import("#web/features/posts/components/pending-approvals").then((m) => ({ default: m.ModeratorPendingApprovals })),
);

/** The feed: the composer opener for those who may post, category filter, posts. */
export function CommunityTab({ community: c }: { community: CommunityView }) {
  const canPost = can(c.viewer.role, "create_post");
  return (
    <div className="space-y-5">
      {can(c.viewer.role, "moderate_posts") && !isManager(c.viewer.role) && (
        <Suspense fallback={null}>
          <ModeratorPendingApprovals community={c} />
        </Suspense>
      )}
      {canPost && (
        <ComposerOpener
          communityId={c.id}
          communityName={c.name}
          categories={c.post_categories}
          canChooseVisibility={isManager(c.viewer.role)}
          levelGate={{
            role: c.viewer.role,
            level: c.viewer.level?.level ?? MIN_LEVEL,
            required: c.min_post_level,
            names: c.level_names,
          }}
        />
      )}
      <PostFeed communityId={c.id} categories={c.post_categories} canPost={canPost} />
    </div>
  );
}
