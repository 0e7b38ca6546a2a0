// What other features use of the development tools: the outbox that the operators' mailbox reads.
export { latestMail, mailboxHtml, mailJson } from "./outbox";
