import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import { useCommunityCache } from "./community-cache";

export type CommunityImageKind = "icon" | "cover";

export const uploadCommunityIcon = (communityId: string, file: File) => {
  const form = new FormData();
  form.append("file", file);
  // The route takes multipart, which the OpenAPI types cannot describe.
  return unwrap(
    api.POST("/api/communities/{communityId}/icon", { params: { path: { communityId } }, body: form as never }),
  );
};

export const uploadCommunityCover = (communityId: string, file: File) => {
  const form = new FormData();
  form.append("file", file);
  return unwrap(
    api.POST("/api/communities/{communityId}/cover", { params: { path: { communityId } }, body: form as never }),
  );
};

/** Uploads the icon or the cover; either completes the 'customization' onboarding task on the server. */
export function useUploadCommunityImage(communityId: string, kind: CommunityImageKind) {
  const cache = useCommunityCache();
  return useMutation({
    mutationFn: (file: File) =>
      kind === "icon" ? uploadCommunityIcon(communityId, file) : uploadCommunityCover(communityId, file),
    onSuccess: (result) => {
      cache.patch(communityId, (c) =>
        kind === "icon" ? { ...c, icon_url: result.url } : { ...c, cover_url: result.url },
      );
      cache.invalidate();
    },
  });
}
