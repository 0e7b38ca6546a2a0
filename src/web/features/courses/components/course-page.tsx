import { useCallback, useState } from "react";
import { Link, Navigate, useLocation, useSearchParams } from "react-router";
import { COURSE_MESSAGES } from "#shared/courses";
import { ErrorFallback } from "#web/components/error-fallback";
import { NotFoundView } from "#web/components/not-found-view";
import { Button, buttonClasses } from "#web/components/ui/button";
import { ApiError } from "#web/lib/api";
import { openAuthDialog } from "#web/lib/auth-dialog-events";
import { useMe } from "#web/lib/session";
import { type CourseDetail, type Lesson, useCompleteLesson, useCourse } from "../api/courses";
import { allLessons, coursePath } from "../format";
import { type CourseDialog, CourseDialogs } from "./course-dialogs";
import { CourseHeader } from "./course-header";
import { CourseOutline } from "./course-outline";
import { LessonView, NoLessons } from "./lesson-view";
import { useLessonFocus, useOutlineMoves } from "./use-lesson-focus";

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

/** The lesson to show without ?lesson: the first one not done yet that can be watched, else the first. */
function defaultLesson(lessons: Lesson[]): Lesson | undefined {
  return lessons.find((l) => !l.completed && !l.locked) ?? lessons[0];
}

/** Whether the visitor is signed out, and the login dialog that brings them back here. */
function useSignIn(message: string) {
  const me = useMe();
  const location = useLocation();
  return {
    signedOut: me.isSuccess && !me.data.user,
    signIn: () => openAuthDialog({ mode: "login", redirect: location.pathname + location.search, message }),
  };
}

function CourseView({ detail }: { detail: CourseDetail }) {
  const { course, community } = detail;
  const { signedOut, signIn } = useSignIn("Log in to take this course.");
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
  const needsPurchase = member && course.lock_reason === "purchase";

  const complete = useCompleteLesson(course.id);
  const moves = useOutlineMoves(detail);
  const lessonTop = useLessonFocus(requested);
  const [dialog, setDialog] = useState<CourseDialog>(null);
  const [editing, setEditing] = useState(false);
  const base = coursePath(community.slug, course.id);
  const hrefOf = useCallback((lessonId: string) => `${base}?lesson=${encodeURIComponent(lessonId)}`, [base]);

  const prev = selectedIndex > 0 ? lessons[selectedIndex - 1] : undefined;
  const next = selectedIndex >= 0 && selectedIndex < lessons.length - 1 ? lessons[selectedIndex + 1] : undefined;

  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
      <title>{`${selected && requested ? `${selected.title} · ` : ""}${course.title} · ${community.name} · Hearth`}</title>
      <CourseHeader
        detail={detail}
        lessons={lessons}
        member={member}
        manage={manage}
        needsPurchase={needsPurchase}
        onOpen={(kind) => setDialog({ kind })}
      />

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
            busy={moves.busy}
            actions={{
              addLesson: (module) => setDialog({ kind: "addLesson", module }),
              addModule: () => setDialog({ kind: "addModule" }),
              editModule: (module) => setDialog({ kind: "editModule", module }),
              deleteModule: (module) => setDialog({ kind: "deleteModule", module }),
              moveModule: moves.moveModule,
              editLesson: (module, lesson) => setDialog({ kind: "editLesson", module, lesson }),
              deleteLesson: (lesson) => setDialog({ kind: "deleteLesson", lesson }),
              moveLesson: moves.moveLesson,
            }}
          />
        </div>
      </div>

      <CourseDialogs
        detail={detail}
        dialog={dialog}
        onClose={() => setDialog(null)}
        needsPurchase={needsPurchase}
        manage={manage}
      />
    </main>
  );
}

function CourseNotFound() {
  const { signedOut, signIn } = useSignIn("Log in to see this course.");
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
        {signedOut && <Button onClick={signIn}>Log in</Button>}
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
