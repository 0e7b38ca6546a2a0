export { AuthDialogHost } from "./components/auth-dialog-host";
export { PasswordStrengthMeter } from "./components/password-strength-meter";
export { useSignOut } from "./api/sign-out";
export { GoogleIcon, useGoogleSignIn } from "./google";
