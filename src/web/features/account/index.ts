export { EditProfileDialogHost } from "./components/edit-profile-dialog-host";
