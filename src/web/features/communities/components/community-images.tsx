import { type ComponentProps, useState } from "react";
import { cn } from "#web/lib/cn";

/** Each size: its width in pixels, its classes, and, for the sizes that can sit on a cover, how it does. */
const sizes = {
  sm: [32, "size-8 rounded-lg text-sm"],
  md: [48, "size-12 rounded-xl text-lg", "-mt-6 shadow-md"],
  lg: [64, "size-16 rounded-2xl text-2xl", "-mt-8 shadow-lg"],
  xl: [96, "size-24 rounded-3xl text-4xl"],
} as const;

/** A community's icon, or its first letter on a warm tile. Decorative: the name is always shown beside it. */
export function CommunityIcon({
  src,
  name,
  size = "md",
  className,
  onCover,
  loading = "lazy",
}: {
  src: string | null | undefined;
  name: string;
  size?: keyof typeof sizes;
  className?: string;
  /** The icon overlaps the bottom of a cover picture ("md" and "lg"). */
  onCover?: boolean;
  /** "eager" for an icon at the top of the page. */
  loading?: "lazy" | "eager";
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const [pixels, sizeClass, coverClass] = sizes[size];
  const showImage = Boolean(src) && failed !== src;
  return (
    <span
      className={cn(
        "relative inline-flex shrink-0 items-center justify-center overflow-hidden bg-gradient-to-br from-brand-600 to-brand-800 font-bold text-white",
        sizeClass,
        onCover && `${coverClass} ring-4 ring-white`,
        className,
      )}
      aria-hidden="true"
    >
      {showImage ? (
        <LazyImage
          src={src!}
          alt=""
          width={pixels}
          height={pixels}
          loading={loading}
          className="size-full bg-white object-cover"
          onError={() => setFailed(src!)}
        />
      ) : (
        <span>{name.trim().charAt(0).toUpperCase() || "?"}</span>
      )}
    </span>
  );
}

/** A community's cover picture filling its box (1084x576, the recommended proportions), loaded lazily. */
export function CoverImage({ src }: { src: string }) {
  return <LazyImage src={src} alt="" width={1084} height={576} className="size-full object-cover" />;
}

/** An image fetched only when it nears the screen and decoded off the main thread; `loading` may say "eager". */
export function LazyImage(props: ComponentProps<"img"> & { alt: string }) {
  return <img loading="lazy" decoding="async" {...props} />;
}
