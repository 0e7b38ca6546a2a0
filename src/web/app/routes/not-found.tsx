import { NotFoundView } from "#web/components/not-found-view";

export function NotFoundRoute() {
  return (
    <>
      <title>Page not found · Hearth</title>
      <NotFoundView />
    </>
  );
}
