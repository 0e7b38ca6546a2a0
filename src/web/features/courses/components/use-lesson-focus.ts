import { useEffect, useRef } from "react";
import { toast } from "#web/lib/toast";
import { type CourseDetail, type CourseModule, type Lesson, useCourseMutations } from "../api/courses";
import { courseErrorText } from "./dialog-parts";

/**
 * A lesson picked from the outline (far below on a phone) brings the player into view: put the
 * returned ref on the lesson's top. Not on arrival, only when `lessonId` changes.
 */
export function useLessonFocus(lessonId: string | null) {
  const lessonTop = useRef<HTMLDivElement>(null);
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const el = lessonTop.current;
    if (el && el.getBoundingClientRect().top < 0) el.scrollIntoView({ block: "start" });
  }, [lessonId]);
  return lessonTop;
}

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

/** The ids with `id` moved one place up (-1) or down (1); null when it is already at that end. */
function moved(ids: string[], id: string, direction: -1 | 1) {
  const from = ids.indexOf(id);
  const to = from + direction;
  if (to < 0 || to >= ids.length) return null;
  const next = [...ids];
  [next[from], next[to]] = [next[to], next[from]];
  return next;
}

/** The outline's arrow for moving an item (the keys CourseOutline puts on its buttons), and its twin. */
const arrows = (kind: "module" | "lesson", id: string, direction: -1 | 1) => ({
  key: `${kind}-${direction < 0 ? "up" : "down"}-${id}`,
  twin: `${kind}-${direction < 0 ? "down" : "up"}-${id}`,
});

const reorderFailed = (error: unknown) =>
  toast.error(courseErrorText(error, "Failed to save the new order. Please try again."));

/**
 * Moving modules and lessons in the outline. After a move, focus stays on the same arrow (or its
 * twin once the item reaches an end). It is placed once the outline shows the new order: moving a
 * focused node in the DOM drops its focus.
 */
export function useOutlineMoves(detail: CourseDetail) {
  const { reorderModules, reorderLessons } = useCourseMutations(detail.course.id);
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
  const focusAfterMove =
    ({ key, twin }: { key: string; twin: string }) =>
    (answer: CourseDetail) => {
      const target = { order: orderOf(answer.modules), key, twin };
      if (shownOrder.current === target.order) placeFocus(target);
      else pendingFocus.current = target;
    };

  return {
    busy: reorderModules.isPending || reorderLessons.isPending,
    moveModule: (module: CourseModule, direction: -1 | 1) => {
      const ids = moved(
        detail.modules.map((m) => m.id),
        module.id,
        direction,
      );
      if (!ids) return;
      reorderModules.mutate(ids, {
        onSuccess: focusAfterMove(arrows("module", module.id, direction)),
        onError: reorderFailed,
      });
    },
    moveLesson: (module: CourseModule, lesson: Lesson, direction: -1 | 1) => {
      const ids = moved(
        module.lessons.map((l) => l.id),
        lesson.id,
        direction,
      );
      if (!ids) return;
      reorderLessons.mutate(
        { moduleId: module.id, ids },
        { onSuccess: focusAfterMove(arrows("lesson", lesson.id, direction)), onError: reorderFailed },
      );
    },
  };
}
