import { useBrowserValue } from "./first-view-context";

const invitePath = (code: string) => `/invite/${code}`;

/** A community's invite link, as people open it (read in the browser only: a click, an effect). */
export const inviteUrl = (code: string) => `${window.location.origin}${invitePath(code)}`;

/**
 * The invite link for a render: the server that draws a first view (and the browser adopting it)
 * does not know the origin the visitor sees, so the path stands in until the page is adopted.
 */
export function useInviteUrl(code: string): string {
  return useBrowserValue(() => inviteUrl(code), invitePath(code));
}
