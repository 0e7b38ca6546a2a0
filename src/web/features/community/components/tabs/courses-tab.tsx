import { BookOpen } from "lucide-react";
import { isManager } from "../../../../../shared/roles";
import type { CommunityView } from "../../../communities";
import { EmptyState } from "../empty-state";

export function CoursesTab({ community: c }: { community: CommunityView }) {
  return (
    <EmptyState icon={BookOpen} title="No courses yet">
      {isManager(c.viewer.role) ? (
        <>
          <p>Courses with modules and video lessons will live here, with each member's progress.</p>
          <p className="mt-3 rounded-xl bg-brand-50 px-4 py-3 text-brand-900 ring-1 ring-brand-100">
            Course authoring is coming soon to Hearth. As owner or admin you will create courses from this tab.
          </p>
        </>
      ) : (
        <p>When {c.name} publishes a course, it will appear here.</p>
      )}
    </EmptyState>
  );
}
