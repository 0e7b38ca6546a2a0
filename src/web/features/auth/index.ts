export { AuthDialogHost } from "./components/auth-dialog-host";
export { NewPasswordFields } from "./components/new-password-fields";
export { useSignOut } from "./api/sign-out";
export { GoogleIcon, useGoogleSignIn } from "./google";
