import { useParams } from "react-router";
import { CoursePage } from "#web/features/courses";

/** /community/:communityId/course/:courseId — one course with its lessons (?lesson=ID). */
export function CourseRoute() {
  const { communityId = "", courseId = "" } = useParams();
  return <CoursePage key={courseId} communityParam={communityId} courseId={courseId} />;
}
