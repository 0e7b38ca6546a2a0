import {
  BarChart3,
  CalendarClock,
  GraduationCap,
  type LucideIcon,
  Mail,
  MessagesSquare,
  Palette,
  ShieldCheck,
  Smartphone,
  Wallet,
} from "lucide-react";
import portraitAiko from "./assets/portrait-aiko.svg";
import portraitDaniel from "./assets/portrait-daniel.svg";
import portraitLena from "./assets/portrait-lena.svg";
import portraitMarcus from "./assets/portrait-marcus.svg";
import portraitMaya from "./assets/portrait-maya.svg";
import portraitPriya from "./assets/portrait-priya.svg";
import portraitSofia from "./assets/portrait-sofia.svg";
import portraitTom from "./assets/portrait-tom.svg";
import streamCoaching from "./assets/stream-coaching.svg";
import streamCommunities from "./assets/stream-communities.svg";
import streamCourses from "./assets/stream-courses.svg";
import streamMemberships from "./assets/stream-memberships.svg";
import streamNewsletters from "./assets/stream-newsletters.svg";
import streamPodcasts from "./assets/stream-podcasts.svg";

/*
 * The creator funnel's static marketing content (SPEC §3, §9). The people are invented; their
 * portraits are drawn (bundled SVGs), never fetched.
 */

export type Testimonial = {
  id: string;
  name: string;
  role: string;
  image: string;
  quote: string;
  revenue: string;
  members: string;
};

export type Feature = { icon: LucideIcon; title: string; description: string };

export type RevenueStreamId = "communities" | "podcasts" | "newsletters" | "memberships" | "courses" | "coaching";

/** A figure floating over a slide, like a notification from the creator's dashboard. */
export type FloatingElement = { label: string; value: string };

export type RevenueStreamSlide = {
  id: RevenueStreamId;
  /** The tab's text. */
  tab: string;
  title: string;
  description: string;
  backgroundImage: string;
  /** Tailwind gradient stops laid over the background, so the text stays readable. */
  overlayGradient: string;
  floatingElements: FloatingElement[];
};

export type CreatorStory = {
  id: string;
  name: string;
  image: string;
  badges: string[];
  quote: string;
  /** Tailwind gradient stops of the card's top band. */
  gradientColor: string;
};

export type Stat = { value: string; label: string };

export type FooterList = { title: string; links: { label: string; to?: string }[] };

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    id: "maya",
    name: "Maya Okafor",
    role: "Yoga teacher, Still Point Studio",
    image: portraitMaya,
    quote:
      "I moved my classes, replays and member chat into one place. Renewals went up the month I stopped juggling five apps.",
    revenue: "$18,400/mo",
    members: "2,400 members",
  },
  {
    id: "daniel",
    name: "Daniel Reyes",
    role: "Personal finance educator",
    image: portraitDaniel,
    quote:
      "My course used to be a folder of videos. Now it's a community where students answer each other's questions before I can.",
    revenue: "$42,000/mo",
    members: "6,800 members",
  },
  {
    id: "priya",
    name: "Priya Nair",
    role: "Illustrator and course creator",
    image: portraitPriya,
    quote:
      "The first weekend after launch, 300 people joined from my newsletter. Setting it up took an afternoon, not a month.",
    revenue: "$9,500/mo",
    members: "1,150 members",
  },
  {
    id: "tom",
    name: "Tom Becker",
    role: "Indie game development coach",
    image: portraitTom,
    quote:
      "Coaching calls, a course and a paid community under one login. My members finally know where everything lives.",
    revenue: "$12,300/mo",
    members: "3,100 members",
  },
  {
    id: "aiko",
    name: "Aiko Tanaka",
    role: "Host of the Slow Craft podcast",
    image: portraitAiko,
    quote: "Listeners wanted somewhere to talk between episodes. The paid tier now covers the whole production budget.",
    revenue: "$7,800/mo",
    members: "4,600 members",
  },
  {
    id: "lena",
    name: "Lena Fischer",
    role: "Writer of The Weekly Garden",
    image: portraitLena,
    quote:
      "Subscribers become members, members become regulars. The leaderboard alone doubled the number of posts each week.",
    revenue: "$15,200/mo",
    members: "5,300 members",
  },
];

/** The four testimonials that rotate on /signup (SPEC §2). */
export const SIGNUP_TESTIMONIALS = TESTIMONIALS.slice(0, 4);

export const FEATURES: readonly Feature[] = [
  {
    icon: MessagesSquare,
    title: "Community feed",
    description: "Posts, polls, comments and likes, organised by category, updated live.",
  },
  {
    icon: GraduationCap,
    title: "Courses that get finished",
    description: "Video lessons in modules, progress tracking and free preview lessons.",
  },
  {
    icon: Wallet,
    title: "Paid memberships",
    description: "Charge a monthly price for your community and sell courses on their own.",
  },
  {
    icon: CalendarClock,
    title: "Onboarding built in",
    description: "A setup checklist walks you from an empty space to your first members.",
  },
  {
    icon: Mail,
    title: "Email that brings people back",
    description: "Notification digests and invites, sent from your own community.",
  },
  {
    icon: BarChart3,
    title: "Leaderboards and analytics",
    description: "See who is active, what they read and which posts start conversations.",
  },
  {
    icon: ShieldCheck,
    title: "Roles and moderation",
    description: "Owners, admins and moderators, post approval and private communities.",
  },
  {
    icon: Smartphone,
    title: "Works on every screen",
    description: "A fast, accessible app on phones, tablets and desktops. Nothing to install.",
  },
  {
    icon: Palette,
    title: "Your brand, your space",
    description: "Your name, icon, cover and web address. No marketplace sending members elsewhere.",
  },
];

/** The /signup page shows the first three. */
export const SIGNUP_FEATURES = FEATURES.slice(0, 3);

/** In the order of the tab strip (SPEC §2). */
export const REVENUE_STREAMS: readonly RevenueStreamSlide[] = [
  {
    id: "courses",
    tab: "Courses",
    title: "Sell courses people actually finish",
    description: "Upload lessons, group them into modules and let progress tracking and free previews do the selling.",
    backgroundImage: streamCourses,
    overlayGradient: "from-brand-900/95 via-brand-900/70 to-brand-900/0",
    floatingElements: [
      { label: "Course completions", value: "+128 this week" },
      { label: "New enrolment", value: "$249" },
    ],
  },
  {
    id: "coaching",
    tab: "Coaching",
    title: "Coach groups, not just individuals",
    description:
      "Run cohorts with a shared feed, replays and resources, and keep the conversation going between calls.",
    backgroundImage: streamCoaching,
    overlayGradient: "from-stone-950/95 via-stone-950/70 to-stone-950/0",
    floatingElements: [
      { label: "Next group call", value: "Thu, 6 pm" },
      { label: "Cohort seats", value: "18 of 20 taken" },
    ],
  },
  {
    id: "communities",
    tab: "Communities",
    title: "A home for your people",
    description: "Free or paid, public or private: posts, polls and live updates that turn followers into a community.",
    backgroundImage: streamCommunities,
    overlayGradient: "from-brand-900/95 via-brand-800/70 to-brand-800/0",
    floatingElements: [
      { label: "New members today", value: "+47" },
      { label: "Active this week", value: "82%" },
    ],
  },
  {
    id: "newsletters",
    tab: "Newsletters",
    title: "Turn readers into regulars",
    description: "Give subscribers a place to reply, discuss and meet each other, and a paid tier worth upgrading to.",
    backgroundImage: streamNewsletters,
    overlayGradient: "from-rose-950/95 via-rose-950/70 to-rose-950/0",
    floatingElements: [
      { label: "Upgraded to paid", value: "+36 readers" },
      { label: "Open rate", value: "61%" },
    ],
  },
  {
    id: "memberships",
    tab: "Memberships",
    title: "Recurring revenue, every month",
    description: "Set a monthly price, offer a free trial and give members something new to come back for.",
    backgroundImage: streamMemberships,
    overlayGradient: "from-amber-950/95 via-amber-950/70 to-amber-950/0",
    floatingElements: [
      { label: "Monthly recurring", value: "$18,400" },
      { label: "Renewal rate", value: "94%" },
    ],
  },
  {
    id: "podcasts",
    tab: "Podcasts",
    title: "Give listeners a place between episodes",
    description: "Bonus episodes, show notes and a members-only feed that funds the next season.",
    backgroundImage: streamPodcasts,
    overlayGradient: "from-stone-950/95 via-stone-950/75 to-stone-950/0",
    floatingElements: [
      { label: "Bonus episode", value: "1,204 plays" },
      { label: "Supporters", value: "+58 this month" },
    ],
  },
];

export const CREATOR_STORIES: readonly CreatorStory[] = [
  {
    id: "marcus",
    name: "Marcus Hill",
    image: portraitMarcus,
    badges: ["Fitness coach", "$31k/mo"],
    quote: "I replaced three subscriptions with one community. My members train together now, not just with me.",
    gradientColor: "from-brand-500 to-rose-600",
  },
  {
    id: "sofia",
    name: "Sofia Marín",
    image: portraitSofia,
    badges: ["Language teacher", "3,900 members"],
    quote: "Daily prompts in the feed keep people speaking. The course is the map, the community is the practice.",
    gradientColor: "from-amber-400 to-brand-600",
  },
  {
    id: "priya",
    name: "Priya Nair",
    image: portraitPriya,
    badges: ["Illustrator", "Course creator"],
    quote: "Students post their homework, I comment on the best ones, and the leaderboard does the rest.",
    gradientColor: "from-rose-400 to-brand-700",
  },
];

export const STATS: readonly Stat[] = [
  { value: "50,000+", label: "creators" },
  { value: "$500M+", label: "earned by creators" },
  { value: "5M+", label: "members" },
  { value: "4.9/5", label: "average rating" },
];

/** What the Kickstarter plan includes (SPEC §9). */
export const KICKSTARTER_PLAN: readonly string[] = [
  "0% transaction fee",
  "Unlimited landing pages",
  "7,500 marketing emails",
  "1 product plus 1 community",
  "250 contacts",
  "Group onboarding call",
  "AI features",
  "Creator studio",
];

/** Footer link lists of /free-trial: entries without a page here are shown as plain text. */
export const FOOTER_LISTS: readonly FooterList[] = [
  {
    title: "Product",
    links: [
      { label: "Discover communities", to: "/" },
      { label: "Create a community", to: "/create" },
      { label: "Pricing", to: "/signup" },
      { label: "Free trial", to: "/free-trial" },
    ],
  },
  {
    title: "Company",
    links: [{ label: "About" }, { label: "Careers" }, { label: "Press" }, { label: "Contact" }],
  },
  {
    title: "Resources",
    links: [{ label: "Creator guides" }, { label: "Help center" }, { label: "API reference", to: "/api/docs" }],
  },
  {
    title: "Legal",
    links: [{ label: "Terms of service" }, { label: "Privacy policy" }, { label: "Cookie policy" }],
  },
];
