/**
 * Every query key of the single post page is built here. The post itself sits under the posts
 * feature's detail key (`["posts", "detail", id]`), so the post card's like, save, vote and pin
 * patch the page in place.
 */
export const postPageKeys = {
  post: (postId: string) => ["posts", "detail", postId] as const,
  comments: (postId: string) => ["posts", "comments", postId] as const,
};
