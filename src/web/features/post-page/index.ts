export { PostPage } from "./components/post-page";
export { postQueryOptions, usePost, type SinglePost } from "./api/get-post";
