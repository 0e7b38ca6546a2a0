import { BookOpen, Plus } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { Link } from "react-router";
import { COURSE_MESSAGES, progressLabel } from "#shared/courses";
import { isManager } from "#shared/roles";
import { Button, buttonClasses } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import type { CommunityView } from "#web/features/communities";
import { type CourseSummary, useCourses } from "../api/courses";
import { coursePath, lessonsText, lockedForMember, viewerLevelText } from "../format";
import { CourseProgress, CourseThumbnail, DraftBadge, PriceBadge } from "./course-bits";
import { CreateCourseDialog } from "./course-form-dialog";

/**
 * The Courses tab (SPEC §2): a card per course with its progress and the 'Start Course' /
 * 'Continue' / 'Review Course' button; drafts for owners and admins, who also create courses here.
 */
export function CoursesTab({
  community: c,
  emptyState,
}: {
  community: CommunityView;
  /** The tab's empty state (the community feature's panel). */
  emptyState: (props: { manager: boolean; onCreate: () => void }) => ReactNode;
}) {
  const id = useId();
  const courses = useCourses(c.id);
  const [creating, setCreating] = useState(false);
  const manager = courses.data?.can_manage ?? isManager(c.viewer.role);
  const items = courses.data?.items ?? [];

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-heading`} className="text-lg font-bold tracking-tight text-stone-900">
            Courses
          </h2>
          <p className="text-sm text-stone-600">
            {courses.isSuccess && items.length > 0
              ? `${items.length} ${items.length === 1 ? "course" : "courses"} in ${c.name}`
              : `Learn together in ${c.name}`}
          </p>
        </div>
        {manager && items.length > 0 && (
          <Button onClick={() => setCreating(true)}>
            <Plus className="size-4" aria-hidden="true" />
            Create course
          </Button>
        )}
      </div>

      {courses.isPending ? (
        <div className="grid gap-5 sm:grid-cols-2" aria-busy="true">
          <span className="sr-only" role="status">
            Loading courses
          </span>
          {[0, 1].map((n) => (
            <div key={n} className="overflow-hidden rounded-2xl bg-white ring-1 ring-stone-200">
              <div className="aspect-video animate-pulse bg-stone-200/70" />
              <div className="space-y-3 p-5">
                <div className="h-4 w-2/3 animate-pulse rounded-full bg-stone-200" />
                <div className="h-3 w-full animate-pulse rounded-full bg-stone-100" />
                <div className="h-9 w-full animate-pulse rounded-lg bg-stone-100" />
              </div>
            </div>
          ))}
        </div>
      ) : courses.isError ? (
        <FormMessage tone="error">{errorMessage(courses.error, "Failed to load courses.", ["FORBIDDEN"])}</FormMessage>
      ) : items.length === 0 ? (
        emptyState({ manager, onCreate: () => setCreating(true) })
      ) : (
        <ul className="grid gap-5 sm:grid-cols-2">
          {items.map((course) => (
            <li key={course.id} className="flex">
              <CourseCard course={course} communitySlug={c.slug} />
            </li>
          ))}
        </ul>
      )}

      {manager && <CreateCourseDialog open={creating} onOpenChange={setCreating} community={c} />}
    </section>
  );
}

function CourseCard({ course, communitySlug }: { course: CourseSummary; communitySlug: string }) {
  const id = useId();
  const locked = lockedForMember(course);
  const levelText = viewerLevelText(course);
  return (
    <article
      aria-labelledby={`${id}-title`}
      className="group relative flex w-full flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-stone-200 transition-shadow focus-within:ring-2 focus-within:ring-brand-600 hover:shadow-md"
    >
      <div className="relative">
        <CourseThumbnail
          id={course.id}
          title={course.title}
          src={course.thumbnail_url}
          className="transition-transform duration-300 group-hover:scale-[1.02]"
        />
        <div className="absolute inset-x-3 top-3 flex items-start justify-between gap-2">
          {course.status === "draft" ? <DraftBadge className="shadow-sm" /> : <span />}
          <PriceBadge course={course} locked={locked} className="shadow-sm" />
        </div>
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h3 id={`${id}-title`} className="text-base leading-snug font-bold text-stone-900">
          {course.title}
        </h3>
        <p className="mt-1 text-xs font-medium text-stone-600">
          {lessonsText(course.lessons_count)}
          {levelText && (
            <>
              <span aria-hidden="true"> · </span>
              {levelText}
            </>
          )}
        </p>
        <p className="mt-2 line-clamp-3 text-sm leading-relaxed text-stone-600">{course.description}</p>
        <div className="mt-auto pt-5">
          <CourseProgress percent={course.progress} label={`Progress in ${course.title}`} />
          <Link
            to={coursePath(communitySlug, course.id)}
            aria-describedby={`${id}-title`}
            className={cn(
              buttonClasses({ variant: locked || course.progress >= 100 ? "secondary" : "primary" }),
              "mt-4 w-full",
              // The whole card opens the course.
              "after:absolute after:inset-0 after:content-['']",
            )}
          >
            {locked ? COURSE_MESSAGES.previewCourse : progressLabel(course.progress)}
          </Link>
        </div>
      </div>
    </article>
  );
}

/** The empty state's call to action for owners and admins. */
export function CreateFirstCourseButton({ onCreate }: { onCreate: () => void }) {
  return (
    <Button className="mt-6" onClick={onCreate}>
      <BookOpen className="size-4" aria-hidden="true" />
      Create course
    </Button>
  );
}
