/**
 * Posts: the routes (posts.routes.ts) over the feed reads and their caches (posts.feed.ts), the
 * post columns, row mapping and single reads (posts.queries.ts), writes (posts.service.ts) and
 * moderation (posts.moderation.ts); the API's post is post-dto.ts.
 */
export { postRoutes } from "./posts.routes";
export { memberCard, postDto, postPage, userCard, type MemberCard, type PostDto, type UserCard } from "./post-dto";
export { memberLevelSql, userCardSql } from "./posts.queries";
export { forgetFeed, forgetPostPage } from "./posts.feed";
export { roleForTakingPart } from "./posts.service";
export { deletePost } from "./posts.service";
