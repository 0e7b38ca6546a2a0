import { cn } from "#web/lib/cn";

/** A drawn portrait (a bundled SVG), sized up front so nothing shifts when it decodes. */
export function Portrait({
  src,
  size,
  className,
  alt = "",
}: {
  src: string;
  size: number;
  className?: string;
  alt?: string;
}) {
  return (
    <img
      src={src}
      width={size}
      height={size}
      alt={alt}
      loading="lazy"
      decoding="async"
      className={cn("shrink-0 rounded-full object-cover", className)}
      style={{ width: size, height: size }}
    />
  );
}

/** A quote's author: portrait, name and role. */
export function Byline({
  person,
  size,
  portraitClassName,
  className,
}: {
  person: { image: string; name: string; role: string };
  size: number;
  portraitClassName?: string;
  className?: string;
}) {
  return (
    <figcaption className={cn("flex items-center gap-3", className)}>
      <Portrait src={person.image} size={size} className={portraitClassName} />
      <div className="min-w-0">
        <p className="font-semibold text-stone-900">{person.name}</p>
        <p className="text-sm text-stone-600">{person.role}</p>
      </div>
    </figcaption>
  );
}

/** A soft coloured light behind a section's content; `className` gives its radial gradients. */
export function Glow({ className }: { className: string }) {
  return <div className={cn("pointer-events-none absolute inset-0", className)} aria-hidden="true" />;
}
