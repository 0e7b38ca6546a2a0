import { BookOpen } from "lucide-react";
import type { CommunityView } from "#web/features/communities";
import { CoursesTab as CourseList, CreateFirstCourseButton } from "#web/features/courses";
import { EmptyState } from "#web/components/empty-state";

/** The Courses tab: the course cards, or the empty state (with a first-course prompt for owners and admins). */
export function CoursesTab({ community: c }: { community: CommunityView }) {
  return (
    <CourseList
      community={c}
      emptyState={({ manager, onCreate }) => (
        <EmptyState icon={BookOpen} title="No courses yet" headingLevel={3}>
          {manager ? (
            <>
              <p>
                Share what you know with {c.name}: create a course, add modules and video lessons, and follow each
                member&apos;s progress.
              </p>
              <CreateFirstCourseButton onCreate={onCreate} />
            </>
          ) : (
            <p>When {c.name} publishes a course, it will appear here.</p>
          )}
        </EmptyState>
      )}
    />
  );
}
