export { MessagesButton } from "./components/messages-button";
export { MessageButton } from "./components/message-button";
export { MessagesPage } from "./components/messages-page";
export { invalidateMessages, messageQueryKeys } from "./api/message-keys";
export { BlockedPeople } from "./components/blocked-people";
