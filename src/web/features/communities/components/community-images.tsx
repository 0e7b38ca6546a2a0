import { useState } from "react";
import { cn } from "#web/lib/cn";

const pixels = { sm: 32, md: 48, lg: 64, xl: 96 } as const;

const sizes = {
  sm: "size-8 rounded-lg text-sm",
  md: "size-12 rounded-xl text-lg",
  lg: "size-16 rounded-2xl text-2xl",
  xl: "size-24 rounded-3xl text-4xl",
};

/** A community's icon, or its first letter on a warm tile. Decorative: the name is always shown beside it. */
export function CommunityIcon({
  src,
  name,
  size = "md",
  className,
  loading = "lazy",
}: {
  src: string | null | undefined;
  name: string;
  size?: keyof typeof sizes;
  className?: string;
  /** "eager" for an icon at the top of the page. */
  loading?: "lazy" | "eager";
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const showImage = Boolean(src) && failed !== src;
  return (
    <span
      className={cn(
        "relative inline-flex shrink-0 items-center justify-center overflow-hidden bg-gradient-to-br from-brand-600 to-brand-800 font-bold text-white",
        sizes[size],
        className,
      )}
      aria-hidden="true"
    >
      {showImage ? (
        <img
          src={src!}
          alt=""
          width={pixels[size]}
          height={pixels[size]}
          loading={loading}
          decoding="async"
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
  return (
    <img
      src={src}
      alt=""
      width={1084}
      height={576}
      loading="lazy"
      decoding="async"
      className="size-full object-cover"
    />
  );
}
