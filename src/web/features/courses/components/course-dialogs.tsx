import { useNavigate } from "react-router";
import { ConfirmDialog } from "#web/components/ui/alert-dialog";
import { toast } from "#web/lib/toast";
import { type CourseDetail, type CourseModule, type Lesson, useCourseMutations } from "../api/courses";
import { allLessons, coursesTabPath, lessonsText } from "../format";
import { EditCourseDialog } from "./course-form-dialog";
import { courseErrorText } from "./dialog-parts";
import { LessonFormDialog } from "./lesson-form-dialog";
import { ModuleFormDialog } from "./module-form-dialog";
import { PurchaseDialog } from "./purchase-dialog";

/** The one dialog open on the course page, if any. */
export type CourseDialog =
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

/** The course page's dialogs: buying (members without access), building and deleting (owners, admins). */
export function CourseDialogs({
  detail,
  dialog,
  onClose,
  needsPurchase,
  manage,
}: {
  detail: CourseDetail;
  dialog: CourseDialog;
  onClose: () => void;
  needsPurchase: boolean;
  manage: boolean;
}) {
  const onOpenChange = (open: boolean) => !open && onClose();
  // Here, not in the confirmations: a mutation's callbacks only run while its component is mounted.
  const mutations = useCourseMutations(detail.course.id);
  const onDeleteError = (error: unknown) => toast.error(courseErrorText(error, "Failed to delete. Please try again."));
  return (
    <>
      {needsPurchase && (
        <PurchaseDialog open={dialog?.kind === "purchase"} onOpenChange={onOpenChange} detail={detail} />
      )}
      {manage && (
        <>
          <EditCourseDialog open={dialog?.kind === "editCourse"} onOpenChange={onOpenChange} detail={detail} />
          <DeleteCourseDialog
            open={dialog?.kind === "deleteCourse"}
            onOpenChange={onOpenChange}
            detail={detail}
            remove={mutations.remove}
          />
          {(dialog?.kind === "addModule" || dialog?.kind === "editModule") && (
            <ModuleFormDialog
              open
              onOpenChange={onOpenChange}
              courseId={detail.course.id}
              module={dialog.kind === "editModule" ? dialog.module : undefined}
              suggestedTitle={`Module ${detail.modules.length + 1}: …`}
            />
          )}
          {(dialog?.kind === "deleteModule" || dialog?.kind === "deleteLesson") && (
            <DeletePartDialog
              dialog={dialog}
              onOpenChange={onOpenChange}
              onConfirm={() => {
                if (dialog.kind === "deleteModule") {
                  mutations.deleteModule.mutate(dialog.module.id, {
                    onSuccess: () => toast.success("Module deleted"),
                    onError: onDeleteError,
                  });
                } else {
                  mutations.deleteLesson.mutate(dialog.lesson.id, {
                    onSuccess: () => toast.success("Lesson deleted"),
                    onError: onDeleteError,
                  });
                }
              }}
            />
          )}
          {(dialog?.kind === "addLesson" || dialog?.kind === "editLesson") && (
            <LessonFormDialog
              open
              onOpenChange={onOpenChange}
              courseId={detail.course.id}
              communityId={detail.community.id}
              module={dialog.module}
              lesson={dialog.kind === "editLesson" ? dialog.lesson : undefined}
            />
          )}
        </>
      )}
    </>
  );
}

function DeleteCourseDialog({
  open,
  onOpenChange,
  detail,
  remove,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  detail: CourseDetail;
  remove: ReturnType<typeof useCourseMutations>["remove"];
}) {
  const { course, community } = detail;
  const navigate = useNavigate();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Delete ${course.title}?`}
      description={`Its modules, ${lessonsText(allLessons(detail).length)}, uploaded videos and everyone's progress are deleted for good.`}
      confirmLabel="Delete course"
      destructive
      onConfirm={() =>
        remove.mutate(community.id, {
          onSuccess: () => {
            toast.success("Course deleted");
            navigate(coursesTabPath(community.slug), { replace: true });
          },
          onError: (error) => toast.error(courseErrorText(error, "Failed to delete the course")),
        })
      }
    />
  );
}

/** Deleting a module (with its lessons) or one lesson. */
function DeletePartDialog({
  dialog,
  onOpenChange,
  onConfirm,
}: {
  dialog: { kind: "deleteModule"; module: CourseModule } | { kind: "deleteLesson"; lesson: Lesson };
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open
      onOpenChange={onOpenChange}
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
      onConfirm={onConfirm}
    />
  );
}
