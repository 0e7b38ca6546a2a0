import { Compass } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { PageMessage } from "./page-message";
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
    <PageMessage
      icon={<Compass className="size-7" aria-hidden="true" />}
      iconClassName="bg-brand-50 text-brand-700"
      title={title}
      body={body}
      className="max-w-md text-center"
    >
      <div className="mt-6 flex justify-center gap-3">
        {children ?? (
          <Link to="/" className={buttonClasses()}>
            Back to home
          </Link>
        )}
      </div>
    </PageMessage>
  );
}
