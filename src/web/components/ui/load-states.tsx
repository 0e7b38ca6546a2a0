import type { ReactNode } from "react";
import { cn } from "#web/lib/cn";

/**
 * Grey stand-ins while something loads: the box is busy for assistive technology, and a hidden
 * status names what is loading ("Loading posts").
 */
export function LoadingRegion({
  label,
  as: Box = "div",
  id,
  className,
  children,
}: {
  label: string;
  /** "main" for a whole page's placeholder. */
  as?: "div" | "main";
  id?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Box id={id} className={className} aria-busy="true">
      <span className="sr-only" role="status">
        {label}
      </span>
      {children}
    </Box>
  );
}

/** A grey block that pulses while what it stands for loads (hidden from assistive technology). */
export function Bone({ className }: { className: string }) {
  return <div className={cn("animate-pulse", className)} aria-hidden="true" />;
}

/**
 * Grey stand-ins for a picture beside lines of text (an author above a date, a name above a
 * handle): `picture` and each of `lines` are a block's size, shape and shade. Hidden from
 * assistive technology, like every placeholder.
 */
export function PictureLinesSkeleton({
  className,
  picture,
  text,
  lines,
}: {
  className: string;
  picture: string;
  /** The column of lines. */
  text: string;
  lines: readonly string[];
}) {
  return (
    <div className={className} aria-hidden="true">
      <Bone className={picture} />
      <div className={text}>
        {lines.map((line) => (
          <Bone key={line} className={line} />
        ))}
      </div>
    </div>
  );
}
