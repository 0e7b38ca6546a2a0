// What other features and app.ts use of points and levels.
export { levelRoutes } from "./levels.routes";
export {
  ATTENDANCE_SWEEP_QUEUE,
  countAttendance,
  LEVEL_UP_QUEUE,
  levelJobHandlers,
  toLevelSettings,
} from "./levels.service";
