export { CoursesTab, CreateFirstCourseButton } from "./components/courses-tab";
export { courseQueryKeys, coursesQueryOptions, courseQueryOptions } from "./api/courses";
export type { CourseDetail, CourseSummary } from "./api/courses";
export { CoursePage } from "./components/course-page";
