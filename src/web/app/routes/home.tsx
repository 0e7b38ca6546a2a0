import {
  ArrowRight,
  BookOpen,
  Bell,
  Flame,
  Lock,
  MessagesSquare,
  Server,
  ShieldCheck,
  Sparkles,
  Users,
} from "lucide-react";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { Button, buttonClasses } from "../../components/ui/button";
import { FormMessage } from "../../components/ui/form-message";
import { openAuthDialog } from "../../lib/auth-dialog-events";
import { useMe } from "../../lib/session";
import { useCreateCommunity } from "../header";

const FEATURES = [
  {
    icon: MessagesSquare,
    title: "Conversations that stay together",
    body: "Posts, polls, comments and likes in one feed per community, sorted into categories your members choose.",
  },
  {
    icon: BookOpen,
    title: "Courses built in",
    body: "Video lessons grouped into modules, with progress that picks up exactly where each member left off.",
  },
  {
    icon: Users,
    title: "Members and roles",
    body: "Owners, admins, moderators and members, each with just the permissions they need.",
  },
  {
    icon: Lock,
    title: "Free, paid or private",
    body: "Open your doors to everyone, offer a membership, or keep a private circle with invite links.",
  },
  {
    icon: Bell,
    title: "Live notifications",
    body: "Replies, likes and new members arrive the moment they happen, on the devices people choose.",
  },
  {
    icon: Server,
    title: "Yours to host",
    body: "One command runs Hearth with its own database. Your community and its data stay on your server.",
  },
] as const;

const STEPS = [
  { title: "Create your account", body: "Sign up with your email, pick a username, and confirm your address." },
  { title: "Light your hearth", body: "Name your community, add a description and a cover, and write a first post." },
  { title: "Invite your people", body: "Share your invite link. Members join, post and learn together." },
] as const;

export function HomeRoute() {
  return <Home />;
}

/** /category/:categoryId — the home view filtered by category. */
export function CategoryRoute() {
  return <Home />;
}

/** /create: the home view, behind sign-in; the create-community flow opens here. */
export function CreateRoute() {
  const me = useMe();
  const signedOut = me.isSuccess && !me.data.user;
  const asked = useRef(false);
  useEffect(() => {
    if (signedOut && !asked.current) {
      asked.current = true;
      openAuthDialog({ mode: "login", redirect: "/create", message: "Log in to create your community." });
    }
  }, [signedOut]);
  return (
    <Home
      notice={
        me.data?.user
          ? "Creating a community is almost here: your account is ready, and this is where the flow will open."
          : undefined
      }
    />
  );
}

function Home({ notice }: { notice?: string }) {
  const me = useMe();
  const createCommunity = useCreateCommunity();
  const user = me.data?.user;
  const firstName = (me.data?.profile?.full_name || user?.name || "").split(/\s+/)[0];

  return (
    <main id="main">
      <title>Hearth · A warm home for your community</title>
      <section className="relative overflow-hidden">
        <div
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(60rem_30rem_at_85%_-10%,var(--color-brand-100),transparent),radial-gradient(40rem_25rem_at_-10%_110%,#fef3c7,transparent)]"
          aria-hidden="true"
        />
        <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.1fr_0.9fr]">
          <div>
            {notice && (
              <FormMessage tone="info" className="mb-6 max-w-xl">
                {notice}
              </FormMessage>
            )}
            <p className="inline-flex items-center gap-2 rounded-full bg-white/80 px-3 py-1 text-sm font-medium text-brand-800 shadow-sm ring-1 ring-brand-200">
              <Sparkles className="size-4" aria-hidden="true" />
              {user && firstName ? `Welcome back, ${firstName}` : "The community platform you host yourself"}
            </p>
            <h1 className="mt-6 text-4xl leading-[1.05] font-extrabold tracking-tight text-balance text-stone-900 sm:text-6xl">
              A warm home for <span className="text-brand-700">your community</span>.
            </h1>
            <p className="mt-6 max-w-xl text-lg leading-relaxed text-pretty text-stone-700">
              Hearth brings your members, conversations and courses together in one place, on a server you control.
              Start a free or paid community, teach what you know, and keep the people who matter close.
            </p>
            <div className="mt-8 flex flex-wrap items-center gap-3">
              <Button size="lg" onClick={createCommunity}>
                Create Community
                <ArrowRight className="size-4" aria-hidden="true" />
              </Button>
              {user ? (
                me.data?.profile && (
                  <Link
                    to={`/u/${encodeURIComponent(me.data.profile.username)}`}
                    className={buttonClasses({ variant: "secondary", size: "lg" })}
                  >
                    View your profile
                  </Link>
                )
              ) : (
                <>
                  <Button variant="secondary" size="lg" onClick={() => openAuthDialog({ mode: "signup" })}>
                    Sign up
                  </Button>
                  <Button variant="ghost" size="lg" onClick={() => openAuthDialog({ mode: "login" })}>
                    Log in
                  </Button>
                </>
              )}
            </div>
          </div>
          <HeroArt />
        </div>
      </section>

      <section className="border-y border-stone-200 bg-white" aria-labelledby="features-heading">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Everything in one place</p>
            <h2 id="features-heading" className="mt-2 text-3xl font-bold tracking-tight text-stone-900 sm:text-4xl">
              What your community gets
            </h2>
            <p className="mt-4 text-lg text-stone-700">
              No patchwork of chat apps, course platforms and mailing lists: one calm place where your people meet.
            </p>
          </div>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map(({ icon: Icon, title, body }) => (
              <li key={title} className="rounded-2xl border border-stone-200 bg-stone-50/60 p-6">
                <span className="flex size-11 items-center justify-center rounded-xl bg-brand-100 text-brand-800">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-stone-900">{title}</h3>
                <p className="mt-2 leading-relaxed text-stone-700">{body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="steps-heading">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
          <h2 id="steps-heading" className="text-3xl font-bold tracking-tight text-stone-900 sm:text-4xl">
            Get started in three steps
          </h2>
          <ol className="mt-10 grid gap-6 md:grid-cols-3">
            {STEPS.map((step, index) => (
              <li key={step.title} className="relative rounded-2xl bg-white p-6 shadow-sm ring-1 ring-stone-200">
                <span className="flex size-9 items-center justify-center rounded-full bg-stone-900 text-sm font-bold text-white">
                  {index + 1}
                </span>
                <h3 className="mt-4 text-lg font-semibold text-stone-900">{step.title}</h3>
                <p className="mt-2 text-stone-700">{step.body}</p>
              </li>
            ))}
          </ol>

          <div className="mt-16 overflow-hidden rounded-3xl bg-gradient-to-br from-brand-800 via-brand-700 to-amber-700 px-6 py-12 text-center shadow-lg sm:px-12">
            <Flame className="mx-auto size-10 text-amber-200" aria-hidden="true" />
            <h2 className="mt-4 text-3xl font-bold tracking-tight text-white">Ready to gather your people?</h2>
            <p className="mx-auto mt-3 max-w-xl text-lg text-orange-50">
              Your community deserves a home that is warm, focused, and truly yours.
            </p>
            <Button
              size="lg"
              variant="secondary"
              className="mt-8 text-brand-800 ring-0 hover:bg-orange-50"
              onClick={createCommunity}
            >
              Create Community
            </Button>
          </div>
        </div>
      </section>
    </main>
  );
}

/** A decorative picture of what Hearth holds; no data, only shapes and the product's parts. */
function HeroArt() {
  const chips = [
    { icon: MessagesSquare, label: "Conversations", className: "-left-4 top-10 sm:-left-10" },
    { icon: BookOpen, label: "Courses", className: "-right-2 top-1/2 sm:-right-8" },
    { icon: ShieldCheck, label: "Roles & moderation", className: "bottom-6 left-6 sm:-left-6" },
  ];
  return (
    <div className="relative mx-auto hidden w-full max-w-md lg:block" aria-hidden="true">
      <div className="absolute inset-6 rounded-[2.5rem] bg-gradient-to-br from-brand-400/40 to-amber-300/40 blur-3xl" />
      <div className="relative aspect-[4/5] rounded-[2rem] bg-white p-6 shadow-2xl ring-1 ring-stone-900/5">
        <div className="h-28 rounded-2xl bg-gradient-to-br from-brand-300 via-amber-200 to-rose-200" />
        <div className="-mt-8 ml-5 flex size-16 items-center justify-center rounded-2xl bg-gradient-to-br from-brand-600 to-brand-800 text-white shadow-lg ring-4 ring-white">
          <Flame className="size-8" strokeWidth={2.2} />
        </div>
        <div className="mt-5 space-y-2.5 px-1">
          <div className="h-3.5 w-2/3 rounded-full bg-stone-800/80" />
          <div className="h-2.5 w-full rounded-full bg-stone-200" />
          <div className="h-2.5 w-5/6 rounded-full bg-stone-200" />
        </div>
        <div className="mt-6 space-y-3">
          {[0, 1, 2].map((row) => (
            <div key={row} className="flex items-center gap-3 rounded-xl bg-stone-50 p-3 ring-1 ring-stone-100">
              <div className="size-9 shrink-0 rounded-full bg-gradient-to-br from-amber-200 to-brand-200" />
              <div className="flex-1 space-y-2">
                <div className="h-2.5 w-1/2 rounded-full bg-stone-300" />
                <div className="h-2 w-4/5 rounded-full bg-stone-200" />
              </div>
            </div>
          ))}
        </div>
      </div>
      {chips.map(({ icon: Icon, label, className }) => (
        <div
          key={label}
          className={`absolute flex items-center gap-2 rounded-full bg-white px-4 py-2.5 text-sm font-semibold text-stone-800 shadow-lg ring-1 ring-stone-900/5 ${className}`}
        >
          <span className="flex size-7 items-center justify-center rounded-full bg-brand-100 text-brand-800">
            <Icon className="size-4" />
          </span>
          {label}
        </div>
      ))}
    </div>
  );
}
