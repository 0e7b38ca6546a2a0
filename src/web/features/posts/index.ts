export { ComposerOpener } from "./components/composer-opener";
export { PostComposer, type ComposerCategory, type PostedResult } from "./components/post-composer";
export { PostFeed } from "./components/post-feed";
export { PostCard, PostCardSkeleton, postAnchorId } from "./components/post-card";
export { PostText } from "./components/post-text";
export { feedQueryOptions, invalidateFeeds, useFeed, type FeedPost } from "./api/get-feed";
export { createPost, useCreatePost } from "./api/create-post";
export { patchPost, postQueryKeys, type PostView } from "./api/post-keys";
export { VideoUpload, VIDEO_ACCEPT, formatBytes } from "./components/video-upload";
export { postQueryOptions, usePost, type SinglePost } from "./api/get-post";

export { PendingApprovals } from "./components/pending-approvals";
