import { RotateCw, TriangleAlert } from "lucide-react";
import { Component, type ErrorInfo, type ReactNode } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { MSG } from "#shared/messages";
import { Button } from "./ui/button";
import { NotFoundView } from "./not-found-view";
import { PageMessage } from "./page-message";

/** The crash fallback (SPEC §2): shown when rendering fails. */
export function ErrorFallback() {
  return (
    <PageMessage
      tall
      icon={<TriangleAlert className="size-7" aria-hidden="true" />}
      iconClassName="bg-red-50 text-red-700"
      title={MSG.crashTitle}
      body={MSG.crashBody}
      className="w-full max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-stone-200"
    >
      <Button className="mt-6" onClick={() => window.location.reload()}>
        <RotateCw className="size-4" aria-hidden="true" />
        Refresh Page
      </Button>
    </PageMessage>
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
