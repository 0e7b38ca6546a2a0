import { videoEmbed } from "#shared/posts";
import { cn } from "#web/lib/cn";

const names = { youtube: "YouTube video", vimeo: "Vimeo video" } as const;

/** A YouTube or Vimeo player (privacy-friendly hosts) or a plain <video> for a file; nothing for other links. */
export function PostVideo({ url, title, className }: { url: string; title?: string; className?: string }) {
  const embed = videoEmbed(url);
  if (!embed) return null;
  return (
    <div className={cn("aspect-video overflow-hidden rounded-xl bg-stone-950", className)}>
      {embed.kind === "file" ? (
        <video src={embed.src} controls preload="metadata" playsInline className="size-full">
          <a href={embed.src}>Download the video</a>
        </video>
      ) : (
        <iframe
          src={embed.src}
          title={title ? `${names[embed.kind]}: ${title}` : names[embed.kind]}
          loading="lazy"
          allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          className="size-full border-0"
        />
      )}
    </div>
  );
}
