export { CommentsSection } from "./components/comments-section";
export { commentQueryKeys } from "./api/comment-keys";
