import { postQueryKeys } from "../../posts";

/**
 * Every query key of the single post page is built here. The post itself sits under the posts
 * feature's detail key, so the post card's like, save, vote, pin and edit patch the page in place.
 */
export const postPageKeys = {
  post: postQueryKeys.detail,
  comments: (postId: string) => ["posts", "comments", postId] as const,
};
