// What app.ts and other features use of direct messages (issue 22).
export { hasBlocked } from "./messages.blocks";
export { messageJobHandlers, takeMessagesForDigest, type DigestConversation } from "./messages.digest";
export { messageEventFrame } from "./messages.events";
export { messageImageAccess } from "./messages.media";
export { messageRoutes } from "./messages.routes";
