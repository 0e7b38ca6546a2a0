// What other features use of courses (media checks a lesson's access).
export { courseGateSql, lessonUnlocked, managesCourses } from "./courses.access";
