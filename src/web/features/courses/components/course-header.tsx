import { BookOpen, ChevronLeft, Clock, Eye, EyeOff, Pencil, ShoppingCart, Trash2 } from "lucide-react";
import { Link } from "react-router";
import { COURSE_MESSAGES } from "#shared/courses";
import { Button } from "#web/components/ui/button";
import { toast } from "#web/lib/toast";
import { type CourseDetail, type Lesson, useCourseMutations } from "../api/courses";
import { courseLockText, coursesTabPath, durationText, lessonsText, lockedForMember, viewerLevelText } from "../format";
import { CourseProgress, DraftBadge, PriceBadge } from "./course-bits";
import { courseErrorText } from "./dialog-parts";

/**
 * The way back to the Courses tab, then the course: badges, title, description, the viewer's
 * progress, Buy (members without access) and, for owners and admins, Publish, Edit and Delete.
 */
export function CourseHeader({
  detail,
  lessons,
  member,
  manage,
  needsPurchase,
  onOpen,
}: {
  detail: CourseDetail;
  lessons: Lesson[];
  member: boolean;
  manage: boolean;
  needsPurchase: boolean;
  onOpen: (kind: "purchase" | "editCourse" | "deleteCourse") => void;
}) {
  const { course, community } = detail;
  const totalText = durationText(lessons.reduce((sum, l) => sum + (l.video_duration ?? 0), 0));
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-4">
        <Link
          to={coursesTabPath(community.slug)}
          className="group -ml-2 inline-flex max-w-full items-center gap-1.5 rounded-xl py-1.5 pr-3 pl-1.5 text-sm font-semibold text-stone-700 transition-colors hover:bg-white hover:text-stone-900 hover:shadow-sm hover:ring-1 hover:ring-stone-200"
        >
          <ChevronLeft
            className="size-4 shrink-0 text-stone-500 transition-transform group-hover:-translate-x-0.5"
            aria-hidden="true"
          />
          <span className="truncate">
            <span className="sr-only">Back to </span>
            {community.name} · Courses
          </span>
        </Link>
      </nav>

      <header className="rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-200 sm:p-7">
        <div className="flex flex-col gap-5 lg:flex-row lg:items-start lg:justify-between lg:gap-10">
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              {course.status === "draft" && <DraftBadge />}
              <PriceBadge course={course} locked={lockedForMember(course)} />
              <span className="inline-flex items-center gap-1 text-xs font-medium text-stone-600">
                <BookOpen className="size-3.5" aria-hidden="true" />
                {lessonsText(lessons.length)}
                {totalText && (
                  <>
                    <span aria-hidden="true">·</span>
                    <Clock className="size-3.5" aria-hidden="true" />
                    {totalText}
                  </>
                )}
              </span>
            </div>
            <h1 className="mt-3 text-2xl font-extrabold tracking-tight text-balance text-stone-900 sm:text-3xl">
              {course.title}
            </h1>
            <p className="mt-2 max-w-3xl text-sm leading-relaxed whitespace-pre-line text-stone-700 sm:text-base">
              {course.description}
            </p>
            {course.status === "draft" && manage && (
              <p className="mt-3 text-sm text-amber-900">
                Only owners and admins see this draft. Publish it when it is ready for members.
              </p>
            )}
          </div>

          <div className="flex w-full shrink-0 flex-col gap-3 lg:w-80">
            {member && lessons.length > 0 && (
              <CourseProgress
                percent={course.progress}
                label={`Progress in ${course.title}`}
                detail={`${course.completed_count} of ${course.lessons_count} lessons`}
              />
            )}
            {needsPurchase && (
              <Button size="lg" className="w-full" onClick={() => onOpen("purchase")}>
                <ShoppingCart className="size-4" aria-hidden="true" />
                {courseLockText(course)}
              </Button>
            )}
            {course.lock_reason === "level" && (
              <p className="rounded-xl bg-stone-100 px-4 py-3 text-sm text-stone-800">
                <span className="font-semibold">{courseLockText(course)}.</span> {viewerLevelText(course)}.{" "}
                {COURSE_MESSAGES.levelLocked}
              </p>
            )}
            {manage && <ManageButtons detail={detail} onOpen={onOpen} />}
          </div>
        </div>
      </header>
    </>
  );
}

/** Publish or Unpublish, Edit, Delete. */
function ManageButtons({
  detail,
  onOpen,
}: {
  detail: CourseDetail;
  onOpen: (kind: "editCourse" | "deleteCourse") => void;
}) {
  const { course } = detail;
  const { update } = useCourseMutations(course.id);
  const setStatus = (status: "draft" | "published") =>
    update.mutate(
      { status },
      {
        onSuccess: () =>
          toast.success(
            status === "published"
              ? "Course published: members of the community can see it now."
              : "Course unpublished: it is a draft again.",
          ),
        onError: (error) => toast.error(courseErrorText(error, "Failed to update the course")),
      },
    );
  const publish = course.status === "draft";
  const target = publish ? "published" : "draft";
  const StatusIcon = publish ? Eye : EyeOff;
  return (
    <div className="grid grid-cols-[1fr_1fr_auto] gap-2">
      <Button
        key={target}
        variant={publish ? "primary" : "secondary"}
        onClick={() => setStatus(target)}
        loading={update.isPending && update.variables?.status === target}
      >
        <StatusIcon className="size-4" aria-hidden="true" />
        {publish ? "Publish" : "Unpublish"}
      </Button>
      <Button variant="secondary" onClick={() => onOpen("editCourse")}>
        <Pencil className="size-4" aria-hidden="true" />
        Edit<span className="sr-only"> course</span>
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="size-10 text-red-700 hover:bg-red-50"
        aria-label="Delete course"
        title="Delete course"
        onClick={() => onOpen("deleteCourse")}
      >
        <Trash2 className="size-4" aria-hidden="true" />
      </Button>
    </div>
  );
}
