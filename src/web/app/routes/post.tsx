import { useParams } from "react-router";
import { PostPage } from "#web/features/posts/components/post-page";

/** /post/:postId — the share link target. */
export function PostRoute() {
  const { postId = "" } = useParams();
  return <PostPage key={postId} postId={postId} />;
}
