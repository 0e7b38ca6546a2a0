import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ApiError, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";
import { communityQueryKeys } from "#web/features/communities";

export type CourseList =
  paths["/api/communities/{communityId}/courses"]["get"]["responses"][200]["content"]["application/json"];
export type CourseSummary = CourseList["items"][number];
export type CourseDetail = paths["/api/courses/{courseId}"]["get"]["responses"][200]["content"]["application/json"];
export type CourseModule = CourseDetail["modules"][number];
export type Lesson = CourseModule["lessons"][number];
export type NewCourse =
  paths["/api/communities/{communityId}/courses"]["post"]["requestBody"]["content"]["application/json"];
export type CourseChanges = paths["/api/courses/{courseId}"]["patch"]["requestBody"]["content"]["application/json"];
export type NewLesson = paths["/api/modules/{moduleId}/lessons"]["post"]["requestBody"]["content"]["application/json"];
export type LessonChanges = paths["/api/lessons/{lessonId}"]["patch"]["requestBody"]["content"]["application/json"];
export type ModuleInput =
  paths["/api/courses/{courseId}/modules"]["post"]["requestBody"]["content"]["application/json"];
export type CourseProgress =
  paths["/api/lessons/{lessonId}/complete"]["post"]["responses"][200]["content"]["application/json"];

/**
 * A community's course list lives under the community's keys, so joining or leaving (which
 * invalidates every community query) refreshes it too. One course is keyed by its id.
 */
export const courseQueryKeys = {
  list: (communityId: string) => communityQueryKeys.part(communityId, "courses"),
  detail: (courseId: string) => ["courses", "detail", courseId] as const,
};

const notRetried = (count: number, error: unknown) => !(error instanceof ApiError && error.status < 500) && count < 2;

export const coursesQueryOptions = (communityId: string) =>
  queryOptions({
    queryKey: courseQueryKeys.list(communityId),
    queryFn: () => unwrap(api.GET("/api/communities/{communityId}/courses", { params: { path: { communityId } } })),
    retry: notRetried,
  });

export function useCourses(communityId: string) {
  return useQuery(coursesQueryOptions(communityId));
}

export const courseQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: courseQueryKeys.detail(courseId),
    queryFn: () => unwrap(api.GET("/api/courses/{courseId}", { params: { path: { courseId } } })),
    retry: notRetried,
  });

export function useCourse(courseId: string) {
  return useQuery(courseQueryOptions(courseId));
}

/** Every change answers the whole course: it replaces the cached one, and the tab's list is refreshed. */
function storeCourse(queryClient: QueryClient, detail: CourseDetail) {
  queryClient.setQueryData(courseQueryKeys.detail(detail.course.id), detail);
  return queryClient.invalidateQueries({ queryKey: courseQueryKeys.list(detail.community.id) });
}

export function useCreateCourse(communityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewCourse) =>
      unwrap(api.POST("/api/communities/{communityId}/courses", { params: { path: { communityId } }, body })),
    onSuccess: (detail) => storeCourse(queryClient, detail),
  });
}

/** Mutations on one course (edit, publish, modules, lessons, purchase), each answering the course. */
export function useCourseMutations(courseId: string) {
  const queryClient = useQueryClient();
  const onSuccess = (detail: CourseDetail) => storeCourse(queryClient, detail);
  const courseParams = { params: { path: { courseId } } };

  const update = useMutation({
    mutationFn: (body: CourseChanges) => unwrap(api.PATCH("/api/courses/{courseId}", { ...courseParams, body })),
    onSuccess,
  });
  const remove = useMutation({
    mutationFn: async (communityId: string) => {
      await unwrap(api.DELETE("/api/courses/{courseId}", courseParams));
      return communityId;
    },
    onSuccess: async (communityId) => {
      queryClient.removeQueries({ queryKey: courseQueryKeys.detail(courseId) });
      await queryClient.invalidateQueries({ queryKey: courseQueryKeys.list(communityId) });
    },
  });
  const addModule = useMutation({
    mutationFn: (body: ModuleInput) => unwrap(api.POST("/api/courses/{courseId}/modules", { ...courseParams, body })),
    onSuccess,
  });
  const reorderModules = useMutation({
    mutationFn: (ids: string[]) =>
      unwrap(api.PUT("/api/courses/{courseId}/modules/order", { ...courseParams, body: { ids } })),
    onSuccess,
  });
  const updateModule = useMutation({
    mutationFn: ({ moduleId, body }: { moduleId: string; body: Partial<ModuleInput> }) =>
      unwrap(api.PATCH("/api/modules/{moduleId}", { params: { path: { moduleId } }, body })),
    onSuccess,
  });
  const deleteModule = useMutation({
    mutationFn: (moduleId: string) => unwrap(api.DELETE("/api/modules/{moduleId}", { params: { path: { moduleId } } })),
    onSuccess,
  });
  const addLesson = useMutation({
    mutationFn: ({ moduleId, body }: { moduleId: string; body: NewLesson }) =>
      unwrap(api.POST("/api/modules/{moduleId}/lessons", { params: { path: { moduleId } }, body })),
    onSuccess,
  });
  const reorderLessons = useMutation({
    mutationFn: ({ moduleId, ids }: { moduleId: string; ids: string[] }) =>
      unwrap(api.PUT("/api/modules/{moduleId}/lessons/order", { params: { path: { moduleId } }, body: { ids } })),
    onSuccess,
  });
  const updateLesson = useMutation({
    mutationFn: ({ lessonId, body }: { lessonId: string; body: LessonChanges }) =>
      unwrap(api.PATCH("/api/lessons/{lessonId}", { params: { path: { lessonId } }, body })),
    onSuccess,
  });
  const deleteLesson = useMutation({
    mutationFn: (lessonId: string) => unwrap(api.DELETE("/api/lessons/{lessonId}", { params: { path: { lessonId } } })),
    onSuccess,
  });

  return {
    update,
    remove,
    addModule,
    reorderModules,
    updateModule,
    deleteModule,
    addLesson,
    reorderLessons,
    updateLesson,
    deleteLesson,
  };
}

/**
 * Mark Complete (and the player's automatic completion). The answer's progress goes into the
 * cached course and the tab's card; a failure is only logged (SPEC §8).
 */
export function useCompleteLesson(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lessonId: string) =>
      unwrap(api.POST("/api/lessons/{lessonId}/complete", { params: { path: { lessonId } } })),
    onSuccess: (progress, lessonId) => {
      const figures = {
        lessons_count: progress.lessons_count,
        completed_count: progress.completed_count,
        progress: progress.progress,
      };
      let communityId: string | null = null;
      queryClient.setQueryData<CourseDetail>(courseQueryKeys.detail(courseId), (old) => {
        if (!old) return old;
        communityId = old.community.id;
        return {
          ...old,
          course: { ...old.course, ...figures },
          modules: old.modules.map((m) => ({
            ...m,
            lessons: m.lessons.map((l) => (l.id === lessonId ? { ...l, completed: true } : l)),
          })),
        };
      });
      if (communityId) {
        queryClient.setQueryData<CourseList>(courseQueryKeys.list(communityId), (old) =>
          old ? { ...old, items: old.items.map((c) => (c.id === courseId ? { ...c, ...figures } : c)) } : old,
        );
      }
    },
    onError: (error, lessonId) => {
      console.error(`Could not mark lesson ${lessonId} complete`, error);
    },
  });
}
