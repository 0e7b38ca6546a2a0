import { levelName } from "#shared/levels";
import { cn } from "#web/lib/cn";

/** The accessible name of a level: "Level 4 (Star)", or "Level 4" when its name says just that. */
export function levelLabel(level: number, names?: readonly string[] | null): string {
  const name = levelName(names, level);
  return name === `Level ${level}` ? name : `Level ${level} (${name})`;
}

const sizes = {
  sm: "size-4 text-[0.625rem] -right-0.5 -bottom-0.5",
  md: "size-5 text-[0.6875rem] -right-1 -bottom-1",
  lg: "size-7 text-sm right-0 bottom-0",
};

/**
 * A person's level in the community: a small number on the corner of their avatar. Wrap the avatar
 * and the badge in `LevelAvatar`, or place it in any `relative` box.
 */
export function LevelBadge({
  level,
  names,
  size = "md",
  className,
}: {
  level: number | null | undefined;
  names?: readonly string[] | null;
  size?: keyof typeof sizes;
  className?: string;
}) {
  if (level == null) return null;
  const label = levelLabel(level, names);
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      data-level={level}
      className={cn(
        "absolute flex items-center justify-center rounded-full bg-brand-700 leading-none font-bold text-white tabular-nums ring-2 ring-white",
        sizes[size],
        className,
      )}
    >
      {level}
    </span>
  );
}

/** An avatar with the level badge on its corner. */
export function LevelAvatar({
  level,
  names,
  size,
  children,
  className,
}: {
  level: number | null | undefined;
  names?: readonly string[] | null;
  size?: keyof typeof sizes;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <span className={cn("relative inline-flex shrink-0", className)}>
      {children}
      <LevelBadge level={level} names={names} size={size} />
    </span>
  );
}
