export { EditProfileDialogHost } from "./components/edit-profile-dialog-host";
export { notificationSettingsQueryOptions } from "./api/notification-settings";
