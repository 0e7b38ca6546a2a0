import { ExternalLink } from "lucide-react";
import { displayHost, safeHref } from "./linkify";
import { linkRel } from "./post-text";

export type LinkPreview = { url: string; title: string; description: string; image: string | null };

/** The preview of a post's first link: picture, title, description and host, all as text. */
export function LinkPreviewCard({ preview }: { preview: LinkPreview }) {
  const href = safeHref(preview.url);
  if (!href) return null;
  const image = preview.image && (preview.image.startsWith("/") || safeHref(preview.image)) ? preview.image : null;
  const host = displayHost(href);
  return (
    <a
      href={href}
      target="_blank"
      rel={linkRel}
      className="group mt-4 flex overflow-hidden rounded-xl bg-white ring-1 ring-stone-200 transition-colors hover:bg-stone-50 hover:ring-stone-300 max-sm:flex-col"
    >
      {image && (
        <img
          src={image}
          alt=""
          width={400}
          height={210}
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
          className="aspect-[1.91/1] w-full shrink-0 bg-stone-100 object-cover sm:aspect-auto sm:w-44"
        />
      )}
      <span className="flex min-w-0 flex-1 flex-col justify-center gap-1 p-3 sm:p-4">
        <span className="flex items-center gap-1.5 text-xs font-medium tracking-wide text-stone-600 uppercase">
          <ExternalLink className="size-3.5 shrink-0" aria-hidden="true" />
          <span className="truncate">{host}</span>
        </span>
        <span className="line-clamp-2 font-semibold text-stone-900 group-hover:underline">{preview.title || host}</span>
        {preview.description && <span className="line-clamp-2 text-sm text-stone-600">{preview.description}</span>}
      </span>
    </a>
  );
}
