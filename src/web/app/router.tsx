import type { RouteObject } from "react-router";
import { RouteErrorView } from "#web/components/error-fallback";
import { RootLayout } from "./root-layout";

/** A route's page component, from its lazily loaded module. */
const page = <K extends string>(module: Promise<Record<K, React.ComponentType>>, name: K) =>
  module.then((m) => ({ Component: m[name] }));

/**
 * Every page is its own chunk, so the first page stays light. The browser makes its router of these
 * (main.tsx), the server renders a page's first view with them (entry-server.tsx).
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorView />,
    // The first page's chunk loads before anything renders; an empty page avoids a flash.
    hydrateFallbackElement: <div className="min-h-screen" aria-busy="true" />,
    children: [
      {
        // Page crashes keep the header.
        errorElement: <RouteErrorView />,
        children: [
          { index: true, lazy: () => page(import("./routes/home"), "HomeRoute") },
          {
            path: "category/:categoryId",
            lazy: () => page(import("./routes/home"), "CategoryRoute"),
          },
          {
            path: "create",
            lazy: () => page(import("./routes/home"), "CreateRoute"),
          },
          {
            path: "community/:communityId",
            lazy: () => page(import("./routes/community"), "CommunityRoute"),
          },
          {
            path: "community/:communityId/setup",
            lazy: () =>
              import("./routes/community-setup").then(({ CommunitySetupRoute }) => ({
                Component: CommunitySetupRoute,
              })),
          },
          {
            path: "community/:communityId/course/:courseId",
            lazy: () => page(import("./routes/course"), "CourseRoute"),
          },
          {
            path: "signup",
            lazy: () => page(import("./routes/signup"), "SignupRoute"),
          },
          {
            path: "signup/pricing",
            lazy: () => page(import("./routes/signup-plans"), "SignupPricingRoute"),
          },
          {
            path: "signup/payment",
            lazy: () => page(import("./routes/signup-plans"), "SignupPaymentRoute"),
          },
          {
            path: "free-trial",
            // Its handle says it draws its own footer.
            lazy: () =>
              import("./routes/free-trial").then(({ FreeTrialRoute, handle }) => ({
                Component: FreeTrialRoute,
                handle,
              })),
          },
          {
            path: "invite/:inviteCode",
            lazy: () => page(import("./routes/invite"), "InviteRoute"),
          },
          {
            path: "reset-password",
            lazy: () => page(import("./routes/reset-password"), "ResetPasswordRoute"),
          },
          {
            path: "post/:postId",
            lazy: () => page(import("./routes/post"), "PostRoute"),
          },
          {
            path: "saved",
            lazy: () => page(import("./routes/saved"), "SavedRoute"),
          },
          {
            // One route for /billing and /billing/checkout/:checkoutId: each route costs every page's entry.
            path: "billing/*",
            lazy: () => page(import("./routes/billing"), "BillingRoute"),
          },
          {
            path: "notifications",
            lazy: () => page(import("./routes/notifications"), "NotificationsRoute"),
          },
          {
            path: "notifications/unsubscribe",
            lazy: () => page(import("./routes/notifications"), "UnsubscribeRoute"),
          },
          {
            // One route for the inbox and a conversation: each route costs every page's entry.
            path: "messages/:conversationId?",
            lazy: () =>
              import("./routes/messages").then(({ MessagesRoute, handle }) => ({ Component: MessagesRoute, handle })),
          },
          {
            path: "search",
            lazy: () => page(import("./routes/search"), "SearchRoute"),
          },
          {
            path: "u/:username",
            lazy: () => page(import("./routes/user-profile"), "UserProfileRoute"),
          },
          {
            path: "*",
            lazy: () => page(import("./routes/not-found"), "NotFoundRoute"),
          },
        ],
      },
    ],
  },
];
