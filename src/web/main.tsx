import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { createBrowserRouter, matchRoutes, type RouteObject } from "react-router";
import { RouterProvider } from "react-router/dom";
import { FIRST_VIEW_DATA_ID, type FirstViewData } from "#shared/first-view";
import { App } from "./app/app";
import { routes } from "./app/router";
import { FirstViewContext } from "./lib/first-view-context";
import { loadDrawnParts } from "./lib/lazy-part";
import { createQueryClient } from "./lib/query-client";
import "./styles.css";

const queryClient = createQueryClient();
const container = document.getElementById("root")!;
// The server drew this page's first view (src/server/lib/first-view.ts), with these answers.
const firstView = document.getElementById(FIRST_VIEW_DATA_ID);

/** The page's own module, loaded before the first render: hydration must draw what the server drew. */
async function loadPageModules() {
  const lazy = (matchRoutes(routes, window.location) ?? []).map((m) => m.route).filter((r) => r.lazy);
  await Promise.all(
    lazy.map(async (route) => {
      const module = await (route.lazy as () => Promise<Partial<RouteObject>>)();
      Object.assign(route, module, { lazy: undefined });
    }),
  );
}

/** The server's first view keeps the root inert until the app can answer a click on it. */
const interactive = () => container.removeAttribute("inert");

async function start() {
  let adopt = false;
  let drawnAt: number | null = null;
  if (firstView) {
    try {
      const { answers, parts, drawnAt: at } = JSON.parse(firstView.textContent ?? "") as FirstViewData;
      drawnAt = at;
      for (const [queryKey, data, readAt] of answers) queryClient.setQueryData(queryKey, data, { updatedAt: readAt });
      await loadPageModules();
      await loadDrawnParts(parts);
      adopt = true;
    } catch {
      // The page's module did not load: drawn from scratch, which loads it again (or shows the crash page).
    }
  }
  // The same tree as the server's (entry-server.tsx), which collects the lazy parts it draws.
  const app = (
    <FirstViewContext value={{ parts: null, drawnAt }}>
      <App queryClient={queryClient} onDrawn={interactive}>
        {/* Hydration data (none: the routes load nothing) tells the router the page was drawn on the
            server, so it leaves the scroll where the visitor may already have taken it. */}
        <RouterProvider router={createBrowserRouter(routes, adopt ? { hydrationData: {} } : undefined)} />
      </App>
    </FirstViewContext>
  );
  // Adopted as a transition: React yields to the browser every few milliseconds while it walks the
  // page, instead of holding the main thread for the whole page (a click meanwhile is replayed).
  if (adopt) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);
}

void start();
