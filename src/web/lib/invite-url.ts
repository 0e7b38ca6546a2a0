/** A community's invite link, as people open it (read in the browser only: a click, an effect). */
export const inviteUrl = (code: string) => `${window.location.origin}/invite/${code}`;
