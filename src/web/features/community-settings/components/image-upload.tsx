import { ImagePlus, Upload } from "lucide-react";
import { useRef } from "react";
import { COMMUNITY_LIMITS } from "#shared/communities";
import { MSG } from "#shared/messages";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { ApiError } from "#web/lib/api";
import { usePictureUpload } from "#web/lib/use-picture-upload";
import { CommunityIcon, type CommunityView } from "#web/features/communities";
import { type CommunityImageKind, useUploadCommunityImage } from "../api/upload-community-image";

const COVER_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];

const RULES = {
  icon: {
    accept: ".svg,image/svg+xml",
    maxBytes: COMMUNITY_LIMITS.iconMaxBytes,
    accepts: (file: File) => file.type === "image/svg+xml" || (!file.type && /\.svg$/i.test(file.name)),
    wrongType: MSG.iconMustBeSvg,
    failedPrefix: MSG.iconUploadFailedPrefix,
    failed: MSG.iconUploadFailed,
    saved: "Icon saved.",
    hint: "SVG only, up to 5MB.",
    choose: "Choose an icon (SVG)",
  },
  cover: {
    accept: COVER_TYPES.join(","),
    maxBytes: COMMUNITY_LIMITS.coverMaxBytes,
    accepts: (file: File) => COVER_TYPES.includes(file.type),
    wrongType: MSG.coverMustBeImage,
    failedPrefix: MSG.coverUploadFailedPrefix,
    failed: MSG.coverUploadFailed,
    saved: "Cover saved.",
    hint: `Recommended ${COMMUNITY_LIMITS.coverRecommended}. JPEG, PNG, WebP or GIF, up to 10MB.`,
    choose: "Choose a cover image",
  },
} as const;

/** Why the server refused, in SPEC §8's words: 'Icon upload failed: <reason>'. */
function uploadFailure(kind: CommunityImageKind, error: unknown): string {
  const rule = RULES[kind];
  const specific =
    error instanceof ApiError &&
    ["VALIDATION", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "FORBIDDEN", "NETWORK", "RATE_LIMITED"].includes(
      error.code,
    );
  return `${rule.failedPrefix} ${specific ? error.message : rule.failed}`;
}

/** Picks, checks in the browser (type, size), previews and uploads the icon or the cover. */
export function ImageUpload({ community, kind }: { community: CommunityView; kind: CommunityImageKind }) {
  const rule = RULES[kind];
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadCommunityImage(community.id, kind);
  const { preview, problem, flash, onFile } = usePictureUpload({
    upload,
    check: (file) =>
      !rule.accepts(file)
        ? rule.wrongType
        : file.size > rule.maxBytes
          ? MSG.fileTooLarge(rule.maxBytes / 1024 / 1024)
          : null,
    saved: rule.saved,
    failed: (error) => uploadFailure(kind, error),
  });

  const current = kind === "icon" ? community.icon_url : community.cover_url;
  const shown = preview ?? current;
  const busy = upload.isPending;

  const picker = (
    <>
      <Button variant="secondary" size="sm" onClick={() => input.current?.click()} loading={busy}>
        {!busy && <Upload className="size-4" aria-hidden="true" />}
        {current ? `Change ${kind}` : `Upload ${kind}`}
      </Button>
      <input
        ref={input}
        type="file"
        accept={rule.accept}
        className="hidden"
        onChange={onFile}
        aria-label={rule.choose}
      />
    </>
  );
  const messages = (
    <div aria-live="polite" className="space-y-2 empty:hidden">
      {problem && <FormMessage tone="error">{problem}</FormMessage>}
      {flash.message && <FormMessage tone="success">{flash.message}</FormMessage>}
    </div>
  );

  if (kind === "icon") {
    return (
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <div className="relative w-fit">
          <CommunityIcon src={shown} name={community.name} size="xl" className="shadow-sm ring-4 ring-white" />
          {busy && <Busy />}
        </div>
        <div className="min-w-0 flex-1 space-y-2">
          {picker}
          <p className="text-sm text-stone-600">{rule.hint}</p>
          {messages}
        </div>
      </div>
    );
  }

  return (
    <div className="space-y-3">
      <div className="relative aspect-[1084/576] w-full max-w-xl overflow-hidden rounded-xl border border-stone-200 bg-gradient-to-br from-brand-100 via-amber-50 to-stone-100">
        {shown ? (
          <img src={shown} alt="" width={1084} height={576} decoding="async" className="size-full object-cover" />
        ) : (
          <div className="flex size-full flex-col items-center justify-center gap-2 text-stone-500">
            <ImagePlus className="size-8" aria-hidden="true" />
            <span className="text-sm font-medium">No cover yet</span>
          </div>
        )}
        {busy && <Busy />}
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        {picker}
        <p className="text-sm text-stone-600">{rule.hint}</p>
      </div>
      {messages}
    </div>
  );
}

function Busy() {
  return (
    <span className="absolute inset-0 flex items-center justify-center rounded-[inherit] bg-white/60">
      <span className="size-6 animate-spin rounded-full border-2 border-brand-700 border-t-transparent" />
    </span>
  );
}
