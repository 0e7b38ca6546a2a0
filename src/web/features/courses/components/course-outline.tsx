import { ChevronDown, ChevronUp, CircleCheck, CirclePlay, Lock, Pencil, Plus, Trash2 } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Link } from "react-router";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";
import type { CourseDetail, CourseModule, Lesson } from "../api/courses";
import { allLessons, durationText } from "../format";

export type OutlineActions = {
  addLesson: (module: CourseModule) => void;
  addModule: () => void;
  editModule: (module: CourseModule) => void;
  deleteModule: (module: CourseModule) => void;
  moveModule: (module: CourseModule, direction: -1 | 1) => void;
  editLesson: (module: CourseModule, lesson: Lesson) => void;
  deleteLesson: (lesson: Lesson) => void;
  moveLesson: (module: CourseModule, lesson: Lesson, direction: -1 | 1) => void;
};

/**
 * The course outline: modules and their lessons with completed ticks, locks, free previews and
 * durations; each lesson a link (?lesson=ID). Owners and admins add lessons and modules, and in
 * "Edit outline" mode reorder, rename and delete.
 */
export function CourseOutline({
  detail,
  selectedId,
  hrefOf,
  manage,
  editing,
  onToggleEditing,
  busy,
  actions,
}: {
  detail: CourseDetail;
  selectedId: string | null;
  hrefOf: (lessonId: string) => string;
  manage: boolean;
  editing: boolean;
  onToggleEditing: () => void;
  busy: boolean;
  actions: OutlineActions;
}) {
  const id = useId();
  const lessons = allLessons(detail);
  const done = lessons.filter((l) => l.completed).length;
  const member = detail.viewer_role !== null;

  return (
    <nav aria-labelledby={`${id}-heading`}>
      <div className="flex items-center justify-between gap-3 rounded-t-2xl border-b border-stone-100 bg-white/95 px-4 py-3.5 backdrop-blur-sm sm:px-5 lg:sticky lg:top-0 lg:z-10">
        <div className="min-w-0">
          <h2 id={`${id}-heading`} className="font-bold text-stone-900">
            Course content
          </h2>
          <p className="text-xs text-stone-600">
            {member && lessons.length > 0 ? `${done} of ${lessons.length} complete` : `${lessons.length} lessons`}
          </p>
        </div>
        {manage && (
          <Button
            variant={editing ? "primary" : "secondary"}
            size="sm"
            aria-pressed={editing}
            onClick={onToggleEditing}
          >
            <Pencil className="size-3.5" aria-hidden="true" />
            {editing ? "Done" : "Edit outline"}
          </Button>
        )}
      </div>

      <ol className="divide-y divide-stone-100">
        {detail.modules.map((module, moduleIndex) => (
          <li key={module.id} aria-labelledby={`${id}-m-${module.id}`}>
            <div className="flex items-start gap-2 bg-stone-50/80 px-4 py-2.5 sm:px-5">
              <div className="min-w-0 flex-1">
                <h3 id={`${id}-m-${module.id}`} className="text-sm font-bold text-stone-900">
                  {module.title}
                </h3>
                {module.description && <p className="mt-0.5 text-xs text-stone-600">{module.description}</p>}
              </div>
              {manage && editing && (
                <ItemControls
                  className="-my-1"
                  kind="module"
                  item={module}
                  editVerb="Rename"
                  first={moduleIndex === 0}
                  last={moduleIndex === detail.modules.length - 1}
                  busy={busy}
                  onMove={(direction) => actions.moveModule(module, direction)}
                  onEdit={() => actions.editModule(module)}
                  onDelete={() => actions.deleteModule(module)}
                />
              )}
            </div>

            {module.lessons.length > 0 ? (
              <ol className="py-1">
                {module.lessons.map((lesson, lessonIndex) => (
                  <li key={lesson.id} className="flex items-center gap-1 pr-2">
                    <LessonLink
                      lesson={lesson}
                      href={hrefOf(lesson.id)}
                      selected={lesson.id === selectedId}
                      showCompletion={member}
                    />
                    {manage && editing && (
                      <ItemControls
                        kind="lesson"
                        item={lesson}
                        editVerb="Edit"
                        first={lessonIndex === 0}
                        last={lessonIndex === module.lessons.length - 1}
                        busy={busy}
                        onMove={(direction) => actions.moveLesson(module, lesson, direction)}
                        onEdit={() => actions.editLesson(module, lesson)}
                        onDelete={() => actions.deleteLesson(lesson)}
                      />
                    )}
                  </li>
                ))}
              </ol>
            ) : (
              <p className="px-4 py-3 text-sm text-stone-600 sm:px-5">No lessons in this module yet.</p>
            )}

            {manage && (
              <div className="px-3 pb-3 sm:px-4">
                <Button
                  variant="ghost"
                  size="sm"
                  className="w-full justify-start text-brand-800"
                  onClick={() => actions.addLesson(module)}
                >
                  <Plus className="size-4" aria-hidden="true" />
                  Add lesson
                  <span className="sr-only"> to {module.title}</span>
                </Button>
              </div>
            )}
          </li>
        ))}
      </ol>

      {manage && (
        <div className="border-t border-stone-100 p-3 sm:p-4">
          <Button variant="secondary" size="sm" className="w-full" onClick={actions.addModule}>
            <Plus className="size-4" aria-hidden="true" />
            Add module
          </Button>
        </div>
      )}
    </nav>
  );
}

function LessonLink({
  lesson,
  href,
  selected,
  showCompletion,
}: {
  lesson: Lesson;
  href: string;
  selected: boolean;
  showCompletion: boolean;
}) {
  const duration = durationText(lesson.video_duration);
  const completed = showCompletion && lesson.completed;
  const Icon = completed ? CircleCheck : lesson.locked ? Lock : CirclePlay;
  return (
    <Link
      to={href}
      preventScrollReset
      aria-current={selected ? "page" : undefined}
      className={cn(
        "group ml-2 flex min-w-0 flex-1 items-start gap-2.5 rounded-lg px-2.5 py-2 text-sm transition-colors sm:ml-3",
        selected ? "bg-brand-50 text-brand-900 ring-1 ring-brand-200" : "text-stone-800 hover:bg-stone-50",
      )}
    >
      <Icon
        className={cn(
          "mt-0.5 size-4 shrink-0",
          completed
            ? "text-emerald-600"
            : lesson.locked
              ? "text-stone-400"
              : selected
                ? "text-brand-700"
                : "text-stone-500",
        )}
        aria-hidden="true"
      />
      <span className="min-w-0 flex-1">
        <span className={cn("block leading-snug", selected && "font-semibold")}>{lesson.title}</span>
        {(duration || lesson.is_preview) && (
          <span className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-stone-600">
            {duration && <span className="tabular-nums">{duration}</span>}
            {lesson.is_preview && (
              <span className="rounded-full bg-sky-50 px-1.5 py-px font-semibold text-sky-800 ring-1 ring-sky-200">
                Free preview
              </span>
            )}
          </span>
        )}
      </span>
      {completed && <span className="sr-only">(completed)</span>}
      {lesson.locked && <span className="sr-only">(locked)</span>}
    </Link>
  );
}

/**
 * Edit mode's buttons for a module or a lesson: move up, move down (their `data-focus-key`s are
 * what useOutlineMoves focuses after a move), edit, delete.
 */
function ItemControls({
  kind,
  item,
  editVerb,
  first,
  last,
  busy,
  onMove,
  onEdit,
  onDelete,
  className,
}: {
  kind: "module" | "lesson";
  item: { id: string; title: string };
  editVerb: "Rename" | "Edit";
  first: boolean;
  last: boolean;
  busy: boolean;
  onMove: (direction: -1 | 1) => void;
  onEdit: () => void;
  onDelete: () => void;
  className?: string;
}) {
  return (
    <div className={cn("flex shrink-0 items-center", className)}>
      <IconButton
        label={`Move ${item.title} up`}
        focusKey={`${kind}-up-${item.id}`}
        disabled={busy || first}
        onClick={() => onMove(-1)}
      >
        <ChevronUp />
      </IconButton>
      <IconButton
        label={`Move ${item.title} down`}
        focusKey={`${kind}-down-${item.id}`}
        disabled={busy || last}
        onClick={() => onMove(1)}
      >
        <ChevronDown />
      </IconButton>
      <IconButton label={`${editVerb} ${item.title}`} onClick={onEdit}>
        <Pencil />
      </IconButton>
      <IconButton label={`Delete ${item.title}`} onClick={onDelete} danger>
        <Trash2 />
      </IconButton>
    </div>
  );
}

function IconButton({
  label,
  onClick,
  disabled,
  danger,
  focusKey,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  danger?: boolean;
  focusKey?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      data-focus-key={focusKey}
      disabled={disabled}
      onClick={onClick}
      className={cn(
        "flex size-8 cursor-pointer items-center justify-center rounded-md text-stone-600 transition-colors [&_svg]:size-4",
        "hover:bg-stone-200/70 hover:text-stone-900 disabled:cursor-not-allowed disabled:opacity-35 disabled:hover:bg-transparent",
        danger && "hover:bg-red-50 hover:text-red-700",
      )}
    >
      {children}
    </button>
  );
}
