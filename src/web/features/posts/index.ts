export { ComposerOpener } from "./components/composer-opener";
export { PostComposer, type ComposerCategory, type PostedResult } from "./components/post-composer";
export { PostFeed } from "./components/post-feed";
export { feedQueryOptions, invalidateFeeds, useFeed, type FeedPost } from "./api/get-feed";
export { createPost, useCreatePost } from "./api/create-post";
