import {
  BookOpen,
  Check,
  ChevronLeft,
  ChevronRight,
  CircleCheck,
  Clock,
  ExternalLink,
  FileText,
  Pencil,
  Plus,
  Trash2,
} from "lucide-react";
import { Link } from "react-router";
import { COURSE_MESSAGES } from "#shared/courses";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";
import type { CourseDetail, CourseModule, Lesson } from "../api/courses";
import { courseLockText, durationText } from "../format";
import { LessonLock, LessonPlayer } from "./lesson-player";

export function LessonView({
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
          lockText={courseLockText(detail.course) ?? ""}
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
          {prev ? <LessonNavLink to={hrefOf(prev.id)} lesson={prev} rel="prev" /> : <span />}
          {next && <LessonNavLink to={hrefOf(next.id)} lesson={next} rel="next" highlight={lesson.completed} />}
        </nav>
      )}
    </article>
  );
}

export function NoLessons({ manage, onAdd }: { manage: boolean; onAdd: () => void }) {
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

/** Previous or Next lesson; Next stands out once the current lesson is completed. */
function LessonNavLink({
  to,
  lesson,
  rel,
  highlight = false,
}: {
  to: string;
  lesson: Lesson;
  rel: "prev" | "next";
  highlight?: boolean;
}) {
  const next = rel === "next";
  const Chevron = next ? ChevronRight : ChevronLeft;
  const chevron = (
    <Chevron
      className={cn(
        "size-3.5 transition-transform",
        next ? "group-hover:translate-x-0.5" : "group-hover:-translate-x-0.5",
      )}
      aria-hidden="true"
    />
  );
  return (
    <Link
      to={to}
      preventScrollReset
      rel={rel}
      className={cn(
        "group flex min-w-0 flex-col rounded-2xl px-4 py-3 shadow-sm ring-1 transition-colors",
        next ? "items-end text-right" : "items-start",
        highlight
          ? "bg-brand-700 text-white ring-brand-700 hover:bg-brand-800"
          : "bg-white ring-stone-200 hover:bg-stone-50",
      )}
    >
      <span
        className={cn(
          "inline-flex items-center gap-1 text-xs font-semibold",
          highlight ? "text-brand-100" : "text-stone-600",
        )}
      >
        {!next && chevron}
        {next ? "Next" : "Previous"}
        {next && chevron}
      </span>
      <span className={cn("mt-0.5 w-full truncate text-sm font-semibold", highlight ? "text-white" : "text-stone-900")}>
        {lesson.title}
      </span>
    </Link>
  );
}
