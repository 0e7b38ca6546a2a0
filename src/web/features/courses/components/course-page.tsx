import {
  BookOpen,
  Check,
  ChevronLeft,
  ChevronRight,
  CircleCheck,
  Clock,
  ExternalLink,
  Eye,
  EyeOff,
  FileText,
  Pencil,
  Plus,
  ShoppingCart,
  Trash2,
} from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from "react-router";
import { toast } from "#web/lib/toast";
import { COURSE_MESSAGES } from "#shared/courses";
import { ErrorFallback } from "#web/components/error-fallback";
import { NotFoundView } from "#web/components/not-found-view";
import { ConfirmDialog } from "#web/components/ui/alert-dialog";
import { Button, buttonClasses } from "#web/components/ui/button";
import { ApiError, errorMessage } from "#web/lib/api";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { cn } from "#web/lib/cn";
import { useMe } from "#web/lib/session";
import {
  type CourseDetail,
  type CourseModule,
  type Lesson,
  useCompleteLesson,
  useCourse,
  useCourseMutations,
} from "../api/courses";
import { allLessons, coursePath, coursePriceText, coursesTabPath, durationText, lessonsText } from "../format";
import { CourseProgress, DraftBadge, PriceBadge } from "./course-bits";
import { EditCourseDialog, SPECIFIC_CODES } from "./course-form-dialog";
import { CourseOutline } from "./course-outline";
import { LessonFormDialog } from "./lesson-form-dialog";
import { LessonLock, LessonPlayer } from "./lesson-player";
import { ModuleFormDialog } from "./module-form-dialog";
import { PurchaseDialog } from "./purchase-dialog";

/**
 * /community/:communityId/course/:courseId — one course: its header, the selected lesson
 * (?lesson=ID) with its player, and the outline. Owners and admins build the course here.
 */
export function CoursePage({ communityParam, courseId }: { communityParam: string; courseId: string }) {
  const query = useCourse(courseId);
  // Signing in or out resets every cached answer; reading the session re-renders this page.
  useMe();
  const location = useLocation();

  if (query.isPending) return <CoursePageSkeleton />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <CourseNotFound />;
    return <ErrorFallback />;
  }
  const { community } = query.data;
  const param = communityParam.toLowerCase();
  if (param !== community.slug.toLowerCase() && param !== community.id.toLowerCase()) {
    // The course lives in another community than the link says: its own address.
    return <Navigate replace to={coursePath(community.slug, courseId) + location.search} />;
  }
  return <CourseView detail={query.data} />;
}

type DialogState =
  | { kind: "editCourse" }
  | { kind: "deleteCourse" }
  | { kind: "purchase" }
  | { kind: "addModule" }
  | { kind: "editModule"; module: CourseModule }
  | { kind: "deleteModule"; module: CourseModule }
  | { kind: "addLesson"; module: CourseModule }
  | { kind: "editLesson"; module: CourseModule; lesson: Lesson }
  | { kind: "deleteLesson"; lesson: Lesson }
  | null;

/** The outline's order as one string (modules, and the lessons of each). */
const orderOf = (modules: CourseModule[]) =>
  modules.map((m) => `${m.id}:${m.lessons.map((l) => l.id).join(",")}`).join("|");

type FocusTarget = { order: string; key: string; twin: string };

/** Focuses a moved item's arrow, or its twin when that one is now disabled (the item reached an end). */
const placeFocus = ({ key, twin }: FocusTarget) => {
  const find = (k: string) => document.querySelector<HTMLButtonElement>(`[data-focus-key="${k}"]`);
  const el = find(key);
  (el && !el.disabled ? el : find(twin))?.focus();
};

/** The lesson to show without ?lesson: the first one not done yet that can be watched, else the first. */
function defaultLesson(lessons: Lesson[]): Lesson | undefined {
  return lessons.find((l) => !l.completed && !l.locked) ?? lessons[0];
}

function CourseView({ detail }: { detail: CourseDetail }) {
  const { course, community } = detail;
  const navigate = useNavigate();
  const location = useLocation();
  const me = useMe();
  const signedOut = me.isSuccess && !me.data.user;
  const [searchParams] = useSearchParams();
  const lessons = allLessons(detail);
  const requested = searchParams.get("lesson");
  // Without ?lesson the lesson chosen on arrival stays, even once completing it changes the default.
  const [arrival] = useState(() => defaultLesson(lessons)?.id);
  const selected =
    lessons.find((l) => l.id === requested) ?? lessons.find((l) => l.id === arrival) ?? defaultLesson(lessons);
  const selectedIndex = selected ? lessons.indexOf(selected) : -1;
  const selectedModule = selected ? detail.modules.find((m) => m.id === selected.module_id) : undefined;
  const member = detail.viewer_role !== null;
  const manage = detail.can_manage;
  const needsPurchase = member && course.price > 0 && !course.has_access;

  const mutations = useCourseMutations(course.id);
  const complete = useCompleteLesson(course.id);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [editing, setEditing] = useState(false);
  const closeDialog = () => setDialog(null);
  const base = coursePath(community.slug, course.id);
  const hrefOf = useCallback((lessonId: string) => `${base}?lesson=${encodeURIComponent(lessonId)}`, [base]);

  // A lesson picked from the outline (far below on a phone) brings the player into view.
  const lessonTop = useRef<HTMLDivElement>(null);
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const el = lessonTop.current;
    if (el && el.getBoundingClientRect().top < 0) el.scrollIntoView({ block: "start" });
  }, [requested]);

  // After a move, focus stays on the same arrow (or its twin once the item reaches an end). It is
  // placed once the outline shows the new order: moving a focused node in the DOM drops its focus.
  const order = orderOf(detail.modules);
  const shownOrder = useRef(order);
  const pendingFocus = useRef<FocusTarget | null>(null);
  useEffect(() => {
    shownOrder.current = order;
    const target = pendingFocus.current;
    if (target?.order === order) {
      pendingFocus.current = null;
      placeFocus(target);
    }
  }, [order]);
  const focusAfterMove = (key: string, twin: string) => (moved: CourseDetail) => {
    const target = { order: orderOf(moved.modules), key, twin };
    if (shownOrder.current === target.order) placeFocus(target);
    else pendingFocus.current = target;
  };

  const reorderFailed = (error: unknown) =>
    toast.error(errorMessage(error, "Failed to save the new order. Please try again.", SPECIFIC_CODES));

  const moveModule = (module: CourseModule, direction: -1 | 1) => {
    const ids = detail.modules.map((m) => m.id);
    const from = ids.indexOf(module.id);
    const to = from + direction;
    if (to < 0 || to >= ids.length) return;
    [ids[from], ids[to]] = [ids[to], ids[from]];
    const key = `module-${direction < 0 ? "up" : "down"}-${module.id}`;
    const twin = `module-${direction < 0 ? "down" : "up"}-${module.id}`;
    mutations.reorderModules.mutate(ids, { onSuccess: focusAfterMove(key, twin), onError: reorderFailed });
  };

  const moveLesson = (module: CourseModule, lesson: Lesson, direction: -1 | 1) => {
    const ids = module.lessons.map((l) => l.id);
    const from = ids.indexOf(lesson.id);
    const to = from + direction;
    if (to < 0 || to >= ids.length) return;
    [ids[from], ids[to]] = [ids[to], ids[from]];
    const key = `lesson-${direction < 0 ? "up" : "down"}-${lesson.id}`;
    const twin = `lesson-${direction < 0 ? "down" : "up"}-${lesson.id}`;
    mutations.reorderLessons.mutate(
      { moduleId: module.id, ids },
      { onSuccess: focusAfterMove(key, twin), onError: reorderFailed },
    );
  };

  const setStatus = (status: "draft" | "published") =>
    mutations.update.mutate(
      { status },
      {
        onSuccess: () =>
          toast.success(
            status === "published"
              ? "Course published: members of the community can see it now."
              : "Course unpublished: it is a draft again.",
          ),
        onError: (error) => toast.error(errorMessage(error, "Failed to update the course", SPECIFIC_CODES)),
      },
    );

  const signIn = () =>
    openAuthDialog({
      mode: "login",
      redirect: location.pathname + location.search,
      message: "Log in to take this course.",
    });

  const totalSeconds = lessons.reduce((sum, l) => sum + (l.video_duration ?? 0), 0);
  const totalText = durationText(totalSeconds);
  const prev = selectedIndex > 0 ? lessons[selectedIndex - 1] : undefined;
  const next = selectedIndex >= 0 && selectedIndex < lessons.length - 1 ? lessons[selectedIndex + 1] : undefined;

  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
      <title>{`${selected && requested ? `${selected.title} · ` : ""}${course.title} · ${community.name} · Hearth`}</title>
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
              <PriceBadge price={course.price} locked={course.price > 0 && !course.has_access} />
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
              <Button size="lg" className="w-full" onClick={() => setDialog({ kind: "purchase" })}>
                <ShoppingCart className="size-4" aria-hidden="true" />
                Buy course — {coursePriceText(course.price)}
              </Button>
            )}
            {manage && (
              <div className="grid grid-cols-[1fr_1fr_auto] gap-2">
                {course.status === "draft" ? (
                  <Button
                    onClick={() => setStatus("published")}
                    loading={mutations.update.isPending && mutations.update.variables?.status === "published"}
                  >
                    <Eye className="size-4" aria-hidden="true" />
                    Publish
                  </Button>
                ) : (
                  <Button
                    variant="secondary"

                    onClick={() => setStatus("draft")}
                    loading={mutations.update.isPending && mutations.update.variables?.status === "draft"}
                  >
                    <EyeOff className="size-4" aria-hidden="true" />
                    Unpublish
                  </Button>
                )}
                <Button variant="secondary" onClick={() => setDialog({ kind: "editCourse" })}>
                  <Pencil className="size-4" aria-hidden="true" />
                  Edit<span className="sr-only"> course</span>
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-10 text-red-700 hover:bg-red-50"
                  aria-label="Delete course"
                  title="Delete course"
                  onClick={() => setDialog({ kind: "deleteCourse" })}
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                </Button>
              </div>
            )}
          </div>
        </div>
      </header>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div ref={lessonTop} className="min-w-0 scroll-mt-20">
          {selected && selectedModule ? (
            <LessonView
              key={selected.id}
              lesson={selected}
              module={selectedModule}
              detail={detail}
              member={member}
              manage={manage}
              prev={prev}
              next={next}
              hrefOf={hrefOf}
              completing={complete.isPending && complete.variables === selected.id}
              onComplete={() => complete.mutate(selected.id)}
              onBuy={() => setDialog({ kind: "purchase" })}
              signedOut={signedOut}
              onSignIn={signIn}
              onEdit={() => setDialog({ kind: "editLesson", module: selectedModule, lesson: selected })}
              onDelete={() => setDialog({ kind: "deleteLesson", lesson: selected })}
            />
          ) : (
            <NoLessons
              manage={manage}
              onAdd={() =>
                detail.modules[0]
                  ? setDialog({ kind: "addLesson", module: detail.modules[0] })
                  : setDialog({ kind: "addModule" })
              }
            />
          )}
        </div>

        <div className="rounded-2xl bg-white shadow-sm ring-1 ring-stone-200 lg:sticky lg:top-20 lg:max-h-[calc(100dvh-6rem)] lg:overflow-y-auto lg:overscroll-contain">
          <CourseOutline
            detail={detail}
            selectedId={selected?.id ?? null}
            hrefOf={hrefOf}
            manage={manage}
            editing={editing}
            onToggleEditing={() => setEditing((e) => !e)}
            busy={mutations.reorderModules.isPending || mutations.reorderLessons.isPending}
            actions={{
              addLesson: (module) => setDialog({ kind: "addLesson", module }),
              addModule: () => setDialog({ kind: "addModule" }),
              editModule: (module) => setDialog({ kind: "editModule", module }),
              deleteModule: (module) => setDialog({ kind: "deleteModule", module }),
              moveModule,
              editLesson: (module, lesson) => setDialog({ kind: "editLesson", module, lesson }),
              deleteLesson: (lesson) => setDialog({ kind: "deleteLesson", lesson }),
              moveLesson,
            }}
          />
        </div>
      </div>

      {needsPurchase && (
        <PurchaseDialog
          open={dialog?.kind === "purchase"}
          onOpenChange={(open) => !open && closeDialog()}
          detail={detail}
        />
      )}
      {manage && (
        <>
          <EditCourseDialog
            open={dialog?.kind === "editCourse"}
            onOpenChange={(open) => !open && closeDialog()}
            detail={detail}
          />
          <ConfirmDialog
            open={dialog?.kind === "deleteCourse"}
            onOpenChange={(open) => !open && closeDialog()}
            title={`Delete ${course.title}?`}
            description={`Its modules, ${lessonsText(lessons.length)}, uploaded videos and everyone's progress are deleted for good.`}
            confirmLabel="Delete course"
            destructive
            onConfirm={() =>
              mutations.remove.mutate(community.id, {
                onSuccess: () => {
                  toast.success("Course deleted");
                  navigate(coursesTabPath(community.slug), { replace: true });
                },
                onError: (error) => toast.error(errorMessage(error, "Failed to delete the course", SPECIFIC_CODES)),
              })
            }
          />
          {(dialog?.kind === "addModule" || dialog?.kind === "editModule") && (
            <ModuleFormDialog
              open
              onOpenChange={(open) => !open && closeDialog()}
              courseId={course.id}
              module={dialog.kind === "editModule" ? dialog.module : undefined}
              suggestedTitle={`Module ${detail.modules.length + 1}: …`}
            />
          )}
          {(dialog?.kind === "deleteModule" || dialog?.kind === "deleteLesson") && (
            <ConfirmDialog
              open
              onOpenChange={(open) => !open && closeDialog()}
              title={`Delete ${dialog.kind === "deleteModule" ? dialog.module.title : dialog.lesson.title}?`}
              description={
                dialog.kind === "deleteModule"
                  ? dialog.module.lessons.length > 0
                    ? `Its ${lessonsText(dialog.module.lessons.length)} and their uploaded videos are deleted too.`
                    : "The module is empty."
                  : "The lesson, its uploaded video and everyone's completion of it are deleted."
              }
              confirmLabel={dialog.kind === "deleteModule" ? "Delete module" : "Delete lesson"}
              destructive
              onConfirm={() => {
                const onError = (error: unknown) =>
                  toast.error(errorMessage(error, "Failed to delete. Please try again.", SPECIFIC_CODES));
                if (dialog.kind === "deleteModule") {
                  mutations.deleteModule.mutate(dialog.module.id, {
                    onSuccess: () => toast.success("Module deleted"),
                    onError,
                  });
                } else {
                  mutations.deleteLesson.mutate(dialog.lesson.id, {
                    onSuccess: () => toast.success("Lesson deleted"),
                    onError,
                  });
                }
              }}
            />
          )}
          {(dialog?.kind === "addLesson" || dialog?.kind === "editLesson") && (
            <LessonFormDialog
              open
              onOpenChange={(open) => !open && closeDialog()}
              courseId={course.id}
              communityId={community.id}
              module={dialog.module}
              lesson={dialog.kind === "editLesson" ? dialog.lesson : undefined}
            />
          )}
        </>
      )}
    </main>
  );
}

function LessonView({
  lesson,
  module,
  detail,
  member,
  manage,
  prev,
  next,
  hrefOf,
  completing,
  onComplete,
  onBuy,
  signedOut,
  onSignIn,
  onEdit,
  onDelete,
}: {
  lesson: Lesson;
  module: CourseModule;
  detail: CourseDetail;
  member: boolean;
  manage: boolean;
  prev?: Lesson;
  next?: Lesson;
  hrefOf: (lessonId: string) => string;
  completing: boolean;
  onComplete: () => void;
  onBuy: () => void;
  signedOut: boolean;
  onSignIn: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const duration = durationText(lesson.video_duration);
  return (
    <article aria-labelledby="lesson-title" className="space-y-5">
      {lesson.locked ? (
        <LessonLock
          reason={lesson.lock_reason ?? "join"}
          communityName={detail.community.name}
          communityPath={`/community/${encodeURIComponent(detail.community.slug)}`}
          priceText={coursePriceText(detail.course.price)}
          onBuy={onBuy}
          signedOut={signedOut}
          onSignIn={onSignIn}
        />
      ) : (
        <LessonPlayer lesson={lesson} onWatched={member ? onComplete : undefined} />
      )}

      <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 sm:p-6">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <p className="text-xs font-semibold tracking-wide text-brand-800 uppercase">{module.title}</p>
            <h2
              id="lesson-title"
              tabIndex={-1}
              className="mt-1 text-xl font-bold tracking-tight text-stone-900 outline-none"
            >
              {lesson.title}
            </h2>
            {(duration || lesson.is_preview) && (
              <p className="mt-1.5 flex flex-wrap items-center gap-2 text-sm text-stone-600">
                {duration && (
                  <span className="inline-flex items-center gap-1 tabular-nums">
                    <Clock className="size-3.5" aria-hidden="true" />
                    {duration}
                  </span>
                )}
                {lesson.is_preview && (
                  <span className="rounded-full bg-sky-50 px-2 py-0.5 text-xs font-semibold text-sky-800 ring-1 ring-sky-200">
                    Free preview
                  </span>
                )}
              </p>
            )}
          </div>
          {member && !lesson.locked && (
            <div className="shrink-0">
              {lesson.completed ? (
                <p className="inline-flex h-10 items-center gap-2 rounded-lg bg-emerald-50 px-4 text-sm font-semibold text-emerald-800 ring-1 ring-emerald-200">
                  <CircleCheck className="size-4" aria-hidden="true" />
                  Completed
                </p>
              ) : (
                <Button onClick={onComplete} loading={completing} className="max-sm:w-full">
                  <Check className="size-4" aria-hidden="true" />
                  {COURSE_MESSAGES.markComplete}
                </Button>
              )}
            </div>
          )}
        </div>

        {lesson.description && (
          <p className="mt-4 text-sm leading-relaxed whitespace-pre-line text-stone-700 sm:text-base">
            {lesson.description}
          </p>
        )}

        {!lesson.locked && lesson.resources.length > 0 && (
          <section aria-labelledby="lesson-resources" className="mt-6">
            <h3 id="lesson-resources" className="text-sm font-bold text-stone-900">
              Resources
            </h3>
            <ul className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
              {lesson.resources.map((r, i) => (
                <li key={`${i}-${r.url}`} className="min-w-0">
                  <a
                    href={r.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="group flex items-center gap-3 rounded-xl p-3 ring-1 ring-stone-200 transition-colors hover:bg-brand-50 hover:ring-brand-200"
                  >
                    <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-stone-100 text-stone-600 group-hover:bg-white group-hover:text-brand-700">
                      <FileText className="size-4" aria-hidden="true" />
                    </span>
                    <span className="min-w-0 flex-1 truncate text-sm font-semibold text-stone-900">{r.title}</span>
                    <ExternalLink className="size-4 shrink-0 text-stone-500" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        )}

        {manage && (
          <div className="mt-6 flex flex-wrap gap-2 border-t border-stone-100 pt-4">
            <Button variant="secondary" size="sm" onClick={onEdit}>
              <Pencil className="size-3.5" aria-hidden="true" />
              Edit lesson
            </Button>
            <Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50" onClick={onDelete}>
              <Trash2 className="size-3.5" aria-hidden="true" />
              Delete lesson
            </Button>
          </div>
        )}
      </div>

      {(prev || next) && (
        <nav aria-label="Lessons" className="grid grid-cols-2 gap-3">
          {prev ? (
            <Link
              to={hrefOf(prev.id)}
              preventScrollReset
              rel="prev"
              className="group flex min-w-0 flex-col items-start rounded-2xl bg-white px-4 py-3 shadow-sm ring-1 ring-stone-200 transition-colors hover:bg-stone-50"
            >
              <span className="inline-flex items-center gap-1 text-xs font-semibold text-stone-600">
                <ChevronLeft
                  className="size-3.5 transition-transform group-hover:-translate-x-0.5"
                  aria-hidden="true"
                />
                Previous
              </span>
              <span className="mt-0.5 w-full truncate text-sm font-semibold text-stone-900">{prev.title}</span>
            </Link>
          ) : (
            <span />
          )}
          {next && (
            <Link
              to={hrefOf(next.id)}
              preventScrollReset
              rel="next"
              className={cn(
                "group flex min-w-0 flex-col items-end rounded-2xl px-4 py-3 text-right shadow-sm ring-1 transition-colors",
                lesson.completed
                  ? "bg-brand-700 text-white ring-brand-700 hover:bg-brand-800"
                  : "bg-white ring-stone-200 hover:bg-stone-50",
              )}
            >
              <span
                className={cn(
                  "inline-flex items-center gap-1 text-xs font-semibold",
                  lesson.completed ? "text-brand-100" : "text-stone-600",
                )}
              >
                Next
                <ChevronRight
                  className="size-3.5 transition-transform group-hover:translate-x-0.5"
                  aria-hidden="true"
                />
              </span>
              <span
                className={cn(
                  "mt-0.5 w-full truncate text-sm font-semibold",
                  lesson.completed ? "text-white" : "text-stone-900",
                )}
              >
                {next.title}
              </span>
            </Link>
          )}
        </nav>
      )}
    </article>
  );
}

function NoLessons({ manage, onAdd }: { manage: boolean; onAdd: () => void }) {
  return (
    <div className="flex min-h-64 flex-col sm:aspect-video sm:min-h-0 items-center justify-center rounded-2xl border border-dashed border-stone-300 bg-white/70 px-6 text-center">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
        <BookOpen className="size-7" aria-hidden="true" />
      </span>
      <h2 className="mt-4 text-lg font-bold text-stone-900">No lessons yet</h2>
      <p className="mt-1 max-w-sm text-sm text-stone-600">
        {manage
          ? "Add a first video lesson: a YouTube or Vimeo link, or a file you upload."
          : "Lessons are on their way. Check back soon."}
      </p>
      {manage && (
        <Button className="mt-5" onClick={onAdd}>
          <Plus className="size-4" aria-hidden="true" />
          Add lesson
        </Button>
      )}
    </div>
  );
}

function CourseNotFound() {
  const me = useMe();
  const signedOut = me.isSuccess && !me.data.user;
  const location = useLocation();
  return (
    <>
      <title>{`${COURSE_MESSAGES.courseNotFound} · Hearth`}</title>
      <NotFoundView
        title={COURSE_MESSAGES.courseNotFound}
        body={
          signedOut
            ? "This course doesn't exist, was removed, or is only visible to members of its community. If you are a member, log in to see it."
            : "This course doesn't exist, was removed, or isn't published yet."
        }
      >
        {signedOut && (
          <Button
            onClick={() =>
              openAuthDialog({
                mode: "login",
                redirect: location.pathname + location.search,
                message: "Log in to see this course.",
              })
            }
          >
            Log in
          </Button>
        )}
        <Link to="/" className={buttonClasses({ variant: signedOut ? "secondary" : "primary" })}>
          Back to home
        </Link>
      </NotFoundView>
    </>
  );
}

function CoursePageSkeleton() {
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8" aria-busy="true">
      <span className="sr-only" role="status">
        Loading course
      </span>
      <div className="mb-4 h-4 w-48 animate-pulse rounded-full bg-stone-200" aria-hidden="true" />
      <div className="rounded-3xl bg-white p-7 ring-1 ring-stone-200" aria-hidden="true">
        <div className="h-4 w-24 animate-pulse rounded-full bg-stone-200" />
        <div className="mt-4 h-7 w-2/3 animate-pulse rounded-full bg-stone-200" />
        <div className="mt-3 h-3 w-full animate-pulse rounded-full bg-stone-100" />
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]" aria-hidden="true">
        <div className="aspect-video animate-pulse rounded-2xl bg-stone-200/70" />
        <div className="h-80 animate-pulse rounded-2xl bg-white ring-1 ring-stone-200" />
      </div>
    </main>
  );
}
