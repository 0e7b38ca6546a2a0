import type { ReactNode } from "react";
import { cn } from "#web/lib/cn";

/** A page that says one thing (not found, crashed, private): an icon, a heading, a sentence, then ways on. */
export function PageMessage({
  icon,
  iconClassName,
  title,
  body,
  className,
  tall = false,
  children,
}: {
  /** The icon element, with its size. */
  icon: ReactNode;
  /** The colours of the circle behind the icon. */
  iconClassName: string;
  title: ReactNode;
  body: ReactNode;
  /** The box around the message. */
  className: string;
  /** A little more of the screen's height, for the crash page. */
  tall?: boolean;
  /** The ways on (buttons, links), with their own layout. */
  children: ReactNode;
}) {
  return (
    <main
      id="main"
      className={cn("flex items-center justify-center px-4 py-16", tall ? "min-h-[70vh]" : "min-h-[60vh]")}
    >
      <div className={className}>
        <span className={cn("mx-auto flex size-14 items-center justify-center rounded-full", iconClassName)}>
          {icon}
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-stone-900">{title}</h1>
        <p className="mt-2 text-stone-600">{body}</p>
        {children}
      </div>
    </main>
  );
}
