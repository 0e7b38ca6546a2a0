// What other features use of comments (reports remove a comment as a moderator would).
export { deleteComment } from "./comments.service";
