// What other features use of courses (media checks a lesson's access).
export { lessonUnlocked, managesCourses } from "./courses.access";
