import { can, isManager } from "../../../../../shared/roles";
import type { CommunityView } from "../../../communities";
import { ComposerOpener, PostFeed } from "../../../posts";
import { ModeratorPendingApprovals } from "../pending-approvals";

/** The feed: the composer opener for those who may post, category filter, posts. */
export function CommunityTab({ community: c }: { community: CommunityView }) {
  const canPost = can(c.viewer.role, "create_post");
  return (
    <div className="space-y-5">
      <ModeratorPendingApprovals community={c} />
      {canPost && (
        <ComposerOpener
          communityId={c.id}
          communityName={c.name}
          categories={c.post_categories}
          canChooseVisibility={isManager(c.viewer.role)}
        />
      )}
      <PostFeed communityId={c.id} categories={c.post_categories} canPost={canPost} />
    </div>
  );
}
