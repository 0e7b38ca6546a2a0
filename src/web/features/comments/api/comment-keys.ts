/**
 * The comment thread's query keys. They sit under the posts prefix, so invalidating the posts
 * feature's queries refreshes threads too; the post itself is the posts feature's detail key.
 */
export const commentQueryKeys = {
  list: (postId: string) => ["posts", "comments", postId] as const,
};
