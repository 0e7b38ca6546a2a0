import { createBrowserRouter } from "react-router";
import { RouteErrorView } from "../components/error-fallback";
import { RootLayout } from "./root-layout";

/** Every page is its own chunk, so the first page stays light. */
export const router = createBrowserRouter([
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
          { index: true, lazy: () => import("./routes/home").then(({ HomeRoute }) => ({ Component: HomeRoute })) },
          {
            path: "category/:categoryId",
            lazy: () => import("./routes/home").then(({ CategoryRoute }) => ({ Component: CategoryRoute })),
          },
          {
            path: "create",
            lazy: () => import("./routes/home").then(({ CreateRoute }) => ({ Component: CreateRoute })),
          },
          {
            path: "community/:communityId",
            lazy: () => import("./routes/community").then(({ CommunityRoute }) => ({ Component: CommunityRoute })),
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
            lazy: () => import("./routes/course").then(({ CourseRoute }) => ({ Component: CourseRoute })),
          },
          {
            path: "signup",
            lazy: () => import("./routes/signup").then(({ SignupRoute }) => ({ Component: SignupRoute })),
          },
          {
            path: "signup/pricing",
            lazy: () =>
              import("./routes/signup-plans").then(({ SignupPricingRoute }) => ({ Component: SignupPricingRoute })),
          },
          {
            path: "signup/payment",
            lazy: () =>
              import("./routes/signup-plans").then(({ SignupPaymentRoute }) => ({ Component: SignupPaymentRoute })),
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
            lazy: () => import("./routes/invite").then(({ InviteRoute }) => ({ Component: InviteRoute })),
          },
          {
            path: "reset-password",
            lazy: () =>
              import("./routes/reset-password").then(({ ResetPasswordRoute }) => ({ Component: ResetPasswordRoute })),
          },
          {
            path: "post/:postId",
            lazy: () => import("./routes/post").then(({ PostRoute }) => ({ Component: PostRoute })),
          },
          {
            path: "saved",
            lazy: () => import("./routes/saved").then(({ SavedRoute }) => ({ Component: SavedRoute })),
          },
          {
            path: "notifications",
            lazy: () =>
              import("./routes/notifications").then(({ NotificationsRoute }) => ({ Component: NotificationsRoute })),
          },
          {
            path: "notifications/unsubscribe",
            lazy: () =>
              import("./routes/notifications").then(({ UnsubscribeRoute }) => ({ Component: UnsubscribeRoute })),
          },
          {
            path: "u/:username",
            lazy: () =>
              import("./routes/user-profile").then(({ UserProfileRoute }) => ({ Component: UserProfileRoute })),
          },
          {
            path: "*",
            lazy: () => import("./routes/not-found").then(({ NotFoundRoute }) => ({ Component: NotFoundRoute })),
          },
        ],
      },
    ],
  },
]);
