// Reports on the web (issue 22). To offer 'Report' on something (never on the viewer's own, never signed out):
// put <ReportMenuItem onSelect={() => setOpen(true)} /> in its ⋯ menu and render
// <ReportDialog target="message" target_id={id} community_id={cid} open={open} onOpenChange={setOpen} />
// outside the menu; or use <ReportButton target=… target_id=… />. The dialog's form loads on first opening.
export { ReportDialog, type ReportDialogProps } from "./components/report-dialog";
export { ReportMenuItem } from "./components/report-menu-item";
export { ReportButton } from "./components/report-button";
export { reportQueryKeys } from "./api/report-keys";
export { useReportCount, reportCountQueryOptions, type ReportCase } from "./api/report-queue";
export {
  reportSettingsQueryOptions,
  useReportSettings,
  useUpdateReportSettings,
  type ReportSettings,
} from "./api/report-settings";
