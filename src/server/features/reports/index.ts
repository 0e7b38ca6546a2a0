// Reports (issue 22, docs/decisions/0020-reports.md): what app.ts uses.
export { reportRoutes } from "./reports.routes";
