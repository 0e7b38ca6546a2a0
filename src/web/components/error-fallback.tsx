import { RotateCw, TriangleAlert } from "lucide-react";
import { Component, type ErrorInfo, type ReactNode } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { MSG } from "#shared/messages";
import { Button } from "./ui/button";
import { NotFoundView } from "./not-found-view";

/** The crash fallback (SPEC §2): shown when rendering fails. */
export function ErrorFallback() {
  return (
    <main id="main" className="flex min-h-[70vh] items-center justify-center px-4 py-16">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-stone-200">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-red-50 text-red-700">
          <TriangleAlert className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-stone-900">{MSG.crashTitle}</h1>
        <p className="mt-2 text-stone-600">{MSG.crashBody}</p>
        <Button className="mt-6" onClick={() => window.location.reload()}>
          <RotateCw className="size-4" aria-hidden="true" />
          Refresh Page
        </Button>
      </div>
    </main>
  );
}

/** The router's errorElement: unknown data routes are a 404, everything else is a crash. */
export function RouteErrorView() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundView />;
  console.error(error);
  return <ErrorFallback />;
}

/** Catches what fails outside the router (providers, the shell itself). */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  render() {
    return this.state.failed ? <ErrorFallback /> : this.props.children;
  }
}
