import { Compass } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClasses } from "./ui/button";

/** A friendly dead end with a way back. */
export function NotFoundView({
  title = "Page not found",
  body = "The page you were looking for doesn't exist or has moved.",
  children,
}: {
  title?: string;
  body?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <main id="main" className="flex min-h-[60vh] items-center justify-center px-4 py-16">
      <div className="max-w-md text-center">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <Compass className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-stone-900">{title}</h1>
        <p className="mt-2 text-stone-600">{body}</p>
        <div className="mt-6 flex justify-center gap-3">
          {children ?? (
            <Link to="/" className={buttonClasses()}>
              Back to home
            </Link>
          )}
        </div>
      </div>
    </main>
  );
}
