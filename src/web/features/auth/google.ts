// Google sign-in for pages outside this feature. Not re-exported from index.ts: the app shell
// imports the index, and this would put the button into the first download of every page.
export { GoogleIcon, useGoogleSignIn } from "./components/google-button";
