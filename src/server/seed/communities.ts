import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import {
  communities,
  communityMembers,
  mediaFiles,
  postCategories,
  user,
  userNotificationSettings,
  userProfiles,
} from "#server/db/schema/index";
import type { Db, Tx } from "#server/db/client";
import type { Storage } from "#server/lib/storage";
import { ONBOARDING_TASKS, slugify, type CommunityCategory } from "#shared/communities";
import type { CommunityRole } from "#shared/roles";
import { coverSvg, iconSvg, paletteFor, prng, renderCover, type CoverPattern, type Motif, type Palette } from "./art";

/** The transaction the seed runs in (all of the demo content lands, or none of it). */
export type { Tx };

/** The two demo accounts that can sign in; everyone else in the demo cannot (no credential). */
export type DemoAccount = "owner" | "member";

type Creator = { username: string; name: string; headline: string; bio: string; location: string };

/** People who run the demo communities that owner@hearth.test does not. */
export const DEMO_CREATORS: readonly Creator[] = [
  {
    username: "maya_chen",
    name: "Maya Chen",
    headline: "Watercolor artist and teacher",
    bio: "Painting loose florals and city sketches. Teaching online since 2018.",
    location: "Vancouver",
  },
  {
    username: "jonas_weber",
    name: "Jonas Weber",
    headline: "Film photographer",
    bio: "35mm and medium format. I develop everything at home.",
    location: "Berlin",
  },
  {
    username: "priya_nair",
    name: "Priya Nair",
    headline: "Freelance brand designer",
    bio: "Ten years freelancing; I help designers price and pitch with confidence.",
    location: "Bangalore",
  },
  {
    username: "marcus_bell",
    name: "Marcus Bell",
    headline: "Runs two online shops",
    bio: "Candles and ceramics. Sharing what works for small shops.",
    location: "Austin",
  },
  {
    username: "elena_rossi",
    name: "Elena Rossi",
    headline: "Independent strategy consultant",
    bio: "Ex-Big Four. Now teaching consultants to sell projects, not hours.",
    location: "Milan",
  },
  {
    username: "daniel_okafor",
    name: "Daniel Okafor",
    headline: "Certified financial planner",
    bio: "Plain-language money advice. Not financial advice, just good habits.",
    location: "London",
  },
  {
    username: "hannah_lee",
    name: "Hannah Lee",
    headline: "Mum of three, spreadsheet fan",
    bio: "We paid off our mortgage early. Here is how we budget.",
    location: "Melbourne",
  },
  {
    username: "rafael_santos",
    name: "Rafael Santos",
    headline: "Running and strength coach",
    bio: "Coaching everyday athletes for 15 years.",
    location: "São Paulo",
  },
  {
    username: "nora_fischer",
    name: "Nora Fischer",
    headline: "Nutritionist",
    bio: "Evidence-based nutrition and better sleep, without the fads.",
    location: "Vienna",
  },
  {
    username: "sam_rivera",
    name: "Sam Rivera",
    headline: "Newsletter operator, 80k subscribers",
    bio: "I write about audience growth and search.",
    location: "Mexico City",
  },
  {
    username: "zoe_martin",
    name: "Zoe Martin",
    headline: "Short-form video producer",
    bio: "Hooks, edits and formats that work.",
    location: "Paris",
  },
  {
    username: "arjun_patel",
    name: "Arjun Patel",
    headline: "Data scientist and educator",
    bio: "Teaching Python to analysts, scientists and teachers.",
    location: "Toronto",
  },
  {
    username: "lena_novak",
    name: "Lena Novak",
    headline: "Indie developer",
    bio: "Shipping small software products and self-hosting everything.",
    location: "Prague",
  },
  {
    username: "aiko_tanaka",
    name: "Aiko Tanaka",
    headline: "Yoga and meditation teacher",
    bio: "Small daily practices for busy people.",
    location: "Kyoto",
  },
  {
    username: "tom_gallagher",
    name: "Tom Gallagher",
    headline: "Recovering screen addict",
    bio: "Helping people take their attention back.",
    location: "Dublin",
  },
];

type Owner = DemoAccount | (typeof DEMO_CREATORS)[number]["username"];

type Special = { who: DemoAccount; role: Exclude<CommunityRole, "owner" | "guest">; viaInvite?: boolean };

export type DemoCommunity = {
  name: string;
  category: CommunityCategory;
  tagline: string;
  description: string;
  shortDescription?: string;
  rules: string[];
  postCategories: [name: string, emoji: string][];
  owner: Owner;
  /** Member rows in total, the owner included. */
  members: number;
  ageDays: number;
  hue: number;
  motif: Motif;
  pattern: CoverPattern;
  price?: number;
  visibility?: "private";
  featured?: boolean;
  moderation?: boolean;
  website?: string;
  /** The demo accounts' places in communities they do not own. */
  specials?: Special[];
  /** Just created: only the description task is done, no icon or cover yet (the setup page shows the rest). */
  settingUp?: boolean;
};

const BE_KIND = "Be kind and respectful. Disagree with ideas, not people.";
const NO_SPAM = "No spam, affiliate links or unsolicited DMs.";
const SEARCH_FIRST = "Search before you post: your question may already have an answer.";
const STAY_ON_TOPIC = "Keep posts on topic and use the right category.";
const NO_ADVICE = "Nothing here is professional advice. Talk to a qualified person for your situation.";
const PRIVACY = "What is shared in the community stays in the community.";

/** 27 communities over all seven categories; names at most 30 characters, descriptions at most 150. */
export const DEMO_COMMUNITIES: readonly DemoCommunity[] = [
  // Owned by owner@hearth.test
  {
    name: "Creator Growth Lab",
    category: "marketing",
    tagline: "Grow an audience you actually like",
    description:
      "Weekly growth experiments, teardown threads and accountability for creators building audiences on every platform.",
    shortDescription: "Growth experiments for creators",
    rules: [BE_KIND, NO_SPAM, "Share results, not just links: what did you try and what happened?", SEARCH_FIRST],
    postCategories: [
      ["General", "💬"],
      ["Wins", "🏆"],
      ["Experiments", "🧪"],
      ["Teardowns", "🔍"],
      ["Introductions", "👋"],
    ],
    owner: "owner",
    members: 1180,
    ageDays: 540,
    hue: 18,
    motif: "arcs",
    pattern: "orbs",
    featured: true,
    moderation: true,
    website: "https://example.com/growth-lab",
    specials: [{ who: "member", role: "moderator" }],
  },
  {
    name: "Indie Founders Club",
    category: "business",
    tagline: "Build a profitable small company",
    description:
      "A paid circle for bootstrapped founders: monthly hot seats, pricing reviews and a private deal-flow board. No VC talk required.",
    shortDescription: "Bootstrapped founders, monthly hot seats",
    rules: [BE_KIND, PRIVACY, "Share real numbers when you can. Rounded is fine.", NO_SPAM],
    postCategories: [
      ["General", "💬"],
      ["Hot seats", "🔥"],
      ["Pricing", "💵"],
      ["Hiring", "🤝"],
    ],
    owner: "owner",
    members: 142,
    ageDays: 410,
    hue: 215,
    motif: "diamond",
    pattern: "rings",
    price: 49,
    featured: true,
  },
  {
    name: "Studio Insiders",
    category: "arts",
    tagline: "Behind the scenes of my studio",
    description:
      "Invite-only: works in progress, early drops and monthly critique calls with a small group of collectors and fellow makers.",
    rules: [PRIVACY, BE_KIND, "Critique the work, kindly and specifically.", "Do not repost work without permission."],
    postCategories: [
      ["Works in progress", "🎨"],
      ["Critique", "🗣️"],
      ["Drops", "📦"],
    ],
    owner: "owner",
    members: 18,
    ageDays: 300,
    hue: 330,
    motif: "hexagon",
    pattern: "waves",
    visibility: "private",
  },
  {
    name: "Sketchbook Sundays",
    category: "arts",
    tagline: "One page a week",
    description: "A weekly prompt and a place to share one sketchbook page every Sunday. All levels welcome.",
    rules: [BE_KIND, "One page per post, please."],
    postCategories: [
      ["Prompts", "✏️"],
      ["Pages", "📓"],
    ],
    owner: "owner",
    members: 3,
    ageDays: 2,
    hue: 45,
    motif: "triangle",
    pattern: "grid",
    settingUp: true,
  },
  // Arts
  {
    name: "Watercolor Collective",
    category: "arts",
    tagline: "Loose, bright, fearless watercolor",
    description:
      "Daily painting prompts, live demos and gentle critique for watercolor painters of every level. Share your wet-on-wet wins and muddy fails.",
    shortDescription: "Daily prompts and live demos",
    rules: [BE_KIND, "Credit reference photos that are not your own.", STAY_ON_TOPIC, NO_SPAM],
    postCategories: [
      ["Daily prompt", "🖌️"],
      ["Critique", "🗣️"],
      ["Supplies", "🧰"],
      ["Show and tell", "🖼️"],
    ],
    owner: "maya_chen",
    members: 312,
    ageDays: 720,
    hue: 190,
    motif: "ring",
    pattern: "waves",
    featured: true,
    specials: [{ who: "owner", role: "member" }],
  },
  {
    name: "Film Photography Club",
    category: "arts",
    tagline: "Shoot, develop, scan, repeat",
    description:
      "For people who still load film: camera advice, home developing, scanning workflows and a monthly roll-swap challenge.",
    rules: [BE_KIND, "Tell us the camera, film stock and developer when you share.", NO_SPAM],
    postCategories: [
      ["Photos", "📷"],
      ["Darkroom", "🧪"],
      ["Gear", "🎞️"],
    ],
    owner: "jonas_weber",
    members: 96,
    ageDays: 860,
    hue: 28,
    motif: "ring",
    pattern: "grid",
    specials: [{ who: "member", role: "member" }],
  },
  // Business
  {
    name: "Freelance Forward",
    category: "business",
    tagline: "Better clients, better rates",
    description:
      "Freelancers helping freelancers: proposals, pricing, contracts and finding clients who pay on time. Templates included.",
    shortDescription: "Proposals, pricing and contracts",
    rules: [BE_KIND, NO_SPAM, "No job posts that pay in exposure.", SEARCH_FIRST],
    postCategories: [
      ["General", "💬"],
      ["Pricing", "💵"],
      ["Templates", "📄"],
      ["Client stories", "📣"],
    ],
    owner: "priya_nair",
    members: 220,
    ageDays: 630,
    hue: 160,
    motif: "triangle",
    pattern: "stripes",
  },
  {
    name: "Small Shop Owners",
    category: "business",
    tagline: "Run a shop without burning out",
    description:
      "Owners of small online and local shops swapping notes on suppliers, shipping, marketplaces and slow seasons.",
    rules: [BE_KIND, NO_SPAM, "Promote your shop only in the monthly showcase thread."],
    postCategories: [
      ["General", "💬"],
      ["Suppliers", "🚚"],
      ["Showcase", "🛍️"],
    ],
    owner: "marcus_bell",
    members: 74,
    ageDays: 380,
    hue: 95,
    motif: "dots",
    pattern: "peaks",
  },
  {
    name: "Consulting Playbook",
    category: "business",
    tagline: "Sell projects, not hours",
    description:
      "A paid community for independent consultants: productized offers, discovery calls, proposals and case studies that close.",
    rules: [PRIVACY, BE_KIND, "No poaching other members' clients."],
    postCategories: [
      ["Offers", "📦"],
      ["Sales calls", "📞"],
      ["Case studies", "📈"],
    ],
    owner: "elena_rossi",
    members: 41,
    ageDays: 210,
    hue: 280,
    motif: "hexagon",
    pattern: "grid",
    price: 29,
  },
  // Finance
  {
    name: "Personal Finance 101",
    category: "finance",
    tagline: "Money basics, explained plainly",
    description:
      "Budgeting, emergency funds, debt payoff and investing basics in plain language. Ask anything; there are no silly money questions.",
    shortDescription: "Money basics in plain language",
    rules: [BE_KIND, NO_ADVICE, "No referral links or get-rich-quick schemes.", SEARCH_FIRST],
    postCategories: [
      ["Questions", "❓"],
      ["Budgeting", "📒"],
      ["Investing", "📈"],
      ["Milestones", "🎉"],
    ],
    owner: "daniel_okafor",
    members: 412,
    ageDays: 900,
    hue: 140,
    motif: "diamond",
    pattern: "peaks",
    featured: true,
    specials: [{ who: "member", role: "member" }],
  },
  {
    name: "Dividend Investors Circle",
    category: "finance",
    tagline: "Slow, steady, compounding",
    description:
      "Long-term dividend investors sharing portfolios, screening ideas and monthly income reports. Paid to keep it focused.",
    rules: [NO_ADVICE, BE_KIND, "No stock pumping or paid promotions."],
    postCategories: [
      ["Portfolios", "💼"],
      ["Ideas", "💡"],
      ["Income reports", "📊"],
    ],
    owner: "daniel_okafor",
    members: 88,
    ageDays: 260,
    hue: 120,
    motif: "arcs",
    pattern: "stripes",
    price: 19,
  },
  {
    name: "Frugal Family Budgets",
    category: "finance",
    tagline: "Spend on what matters",
    description:
      "Families comparing grocery hacks, sinking funds and budget templates. Share your monthly numbers for friendly accountability.",
    rules: [BE_KIND, "No shaming anyone's spending.", NO_SPAM],
    postCategories: [
      ["Budgets", "📒"],
      ["Groceries", "🛒"],
    ],
    owner: "hannah_lee",
    members: 57,
    ageDays: 150,
    hue: 75,
    motif: "dots",
    pattern: "orbs",
  },
  // Health
  {
    name: "Strength After 40",
    category: "health",
    tagline: "Get strong at any age",
    description:
      "Simple strength programs for people over 40: form checks, mobility, recovery and steady progress without injuries.",
    shortDescription: "Strength programs for over 40s",
    rules: [BE_KIND, NO_ADVICE, "Post form-check videos in the Form checks category."],
    postCategories: [
      ["Training logs", "🏋️"],
      ["Form checks", "🎥"],
      ["Recovery", "🛌"],
    ],
    owner: "rafael_santos",
    members: 263,
    ageDays: 500,
    hue: 5,
    motif: "hexagon",
    pattern: "stripes",
  },
  {
    name: "Plant-Based Kitchen",
    category: "health",
    tagline: "Eat more plants, simply",
    description: "Weeknight plant-based recipes, meal prep plans and protein questions answered. Flexitarians welcome.",
    rules: [BE_KIND, "Share the full recipe, not just a photo.", NO_SPAM],
    postCategories: [
      ["Recipes", "🥗"],
      ["Meal prep", "🍱"],
      ["Questions", "❓"],
    ],
    owner: "nora_fischer",
    members: 145,
    ageDays: 330,
    hue: 105,
    motif: "ring",
    pattern: "orbs",
  },
  {
    name: "Sleep Better Project",
    category: "health",
    tagline: "Six weeks to better nights",
    description: "A six-week group program to reset your sleep: routines, light, caffeine and a weekly check-in.",
    rules: [BE_KIND, NO_ADVICE],
    postCategories: [
      ["Check-ins", "🗓️"],
      ["Questions", "❓"],
    ],
    owner: "nora_fischer",
    members: 38,
    ageDays: 90,
    hue: 235,
    motif: "arcs",
    pattern: "orbs",
  },
  {
    name: "Run Your First Marathon",
    category: "health",
    tagline: "From couch to 42.2 km",
    description:
      "A 20-week plan, long-run check-ins and race-day advice for first-time marathoners. Walk breaks are allowed.",
    rules: [BE_KIND, NO_ADVICE, "Log your long run every weekend."],
    postCategories: [
      ["Long runs", "🏃"],
      ["Gear", "👟"],
      ["Race reports", "🏅"],
    ],
    owner: "rafael_santos",
    members: 180,
    ageDays: 240,
    hue: 350,
    motif: "triangle",
    pattern: "peaks",
  },
  // Marketing
  {
    name: "Newsletter Operators",
    category: "marketing",
    tagline: "Write, grow, monetize",
    description:
      "Writers running newsletters trade notes on growth, sponsorships, paid tiers and the tools behind them.",
    rules: [BE_KIND, NO_SPAM, "Cross-promotion swaps go in the Swaps category."],
    postCategories: [
      ["Growth", "📈"],
      ["Sponsors", "🤝"],
      ["Swaps", "🔁"],
      ["Tools", "🧰"],
    ],
    owner: "sam_rivera",
    members: 132,
    ageDays: 450,
    hue: 275,
    motif: "dots",
    pattern: "waves",
    specials: [{ who: "owner", role: "admin" }],
  },
  {
    name: "Short-Form Video Lab",
    category: "marketing",
    tagline: "Hooks that hold",
    description: "Scripts, hooks, editing tricks and weekly feedback on short videos for Reels, Shorts and TikTok.",
    shortDescription: "Weekly feedback on short videos",
    rules: [BE_KIND, "Feedback threads: give two before you ask for one.", NO_SPAM],
    postCategories: [
      ["Feedback", "🎬"],
      ["Hooks", "🪝"],
      ["Editing", "✂️"],
    ],
    owner: "zoe_martin",
    members: 205,
    ageDays: 200,
    hue: 300,
    motif: "diamond",
    pattern: "stripes",
  },
  {
    name: "SEO for Humans",
    category: "marketing",
    tagline: "Search traffic without the jargon",
    description:
      "Practical SEO for small sites: keyword research, internal links and content that ranks and reads well.",
    rules: [BE_KIND, "No link-building requests.", SEARCH_FIRST],
    postCategories: [
      ["Questions", "❓"],
      ["Site reviews", "🔍"],
    ],
    owner: "sam_rivera",
    members: 49,
    ageDays: 120,
    hue: 195,
    motif: "ring",
    pattern: "stripes",
  },
  // Technology
  {
    name: "Python for Data People",
    category: "technology",
    tagline: "From spreadsheets to pandas",
    description:
      "Learn Python for analysis: notebooks, pandas, plotting and automating the boring parts of your data work.",
    shortDescription: "Python and pandas for analysts",
    rules: [BE_KIND, "Share code as text, not screenshots.", SEARCH_FIRST, STAY_ON_TOPIC],
    postCategories: [
      ["Help", "🆘"],
      ["Projects", "🛠️"],
      ["Resources", "📚"],
      ["Introductions", "👋"],
    ],
    owner: "arjun_patel",
    members: 356,
    ageDays: 780,
    hue: 210,
    motif: "hexagon",
    pattern: "grid",
    featured: true,
    specials: [{ who: "member", role: "member" }],
  },
  {
    name: "Indie Hackers Build Club",
    category: "technology",
    tagline: "Ship something every month",
    description:
      "Makers building small software products in public: monthly ship goals, launch feedback and revenue milestones.",
    rules: [BE_KIND, NO_SPAM, "Launch posts go in Launches, once per product."],
    postCategories: [
      ["Build logs", "🧱"],
      ["Launches", "🚀"],
      ["Feedback", "💬"],
    ],
    owner: "lena_novak",
    members: 118,
    ageDays: 340,
    hue: 260,
    motif: "triangle",
    pattern: "peaks",
  },
  {
    name: "Home Lab & Self-Hosting",
    category: "technology",
    tagline: "Own your stack",
    description:
      "Servers in closets, containers on mini PCs and backups that actually restore. Share your setup and learn from others.",
    shortDescription: "Share your setup, learn from others",
    rules: [BE_KIND, "No piracy or instructions for it.", SEARCH_FIRST],
    postCategories: [
      ["Setups", "🖥️"],
      ["Help", "🆘"],
      ["Networking", "🌐"],
      ["Backups", "💾"],
    ],
    owner: "lena_novak",
    members: 241,
    ageDays: 600,
    hue: 180,
    motif: "dots",
    pattern: "stripes",
    featured: true,
  },
  {
    name: "AI Tools for Teachers",
    category: "technology",
    tagline: "Less prep, more teaching",
    description: "Teachers testing AI tools for lesson planning, feedback and accessibility, with honest reviews.",
    rules: [BE_KIND, "Never share student data.", STAY_ON_TOPIC],
    postCategories: [
      ["Reviews", "⭐"],
      ["Lesson ideas", "💡"],
    ],
    owner: "arjun_patel",
    members: 66,
    ageDays: 60,
    hue: 225,
    motif: "arcs",
    pattern: "orbs",
  },
  // Wellness
  {
    name: "Mindful Mornings",
    category: "wellness",
    tagline: "Ten quiet minutes a day",
    description:
      "A daily ten-minute guided meditation, a gratitude thread and gentle accountability to start the day calm.",
    shortDescription: "Daily ten-minute meditation",
    rules: [BE_KIND, PRIVACY, "No selling courses or coaching in posts."],
    postCategories: [
      ["Daily practice", "🧘"],
      ["Gratitude", "🙏"],
      ["Questions", "❓"],
    ],
    owner: "aiko_tanaka",
    members: 298,
    ageDays: 700,
    hue: 170,
    motif: "ring",
    pattern: "waves",
    specials: [{ who: "member", role: "member", viaInvite: true }],
  },
  {
    name: "Journaling Circle",
    category: "wellness",
    tagline: "Write it down, let it go",
    description: "Weekly journaling prompts, notebook setups and a supportive place to reflect together.",
    rules: [BE_KIND, PRIVACY],
    postCategories: [
      ["Prompts", "✍️"],
      ["Reflections", "🌱"],
    ],
    owner: "aiko_tanaka",
    members: 81,
    ageDays: 280,
    hue: 35,
    motif: "diamond",
    pattern: "orbs",
  },
  {
    name: "Yoga for Desk Workers",
    category: "wellness",
    tagline: "Undo the sitting",
    description: "Short yoga and stretching routines for neck, back and hips, designed to fit between meetings.",
    rules: [BE_KIND, NO_ADVICE, "Listen to your body; skip what hurts."],
    postCategories: [
      ["Routines", "🧘"],
      ["Questions", "❓"],
      ["Progress", "📈"],
    ],
    owner: "aiko_tanaka",
    members: 154,
    ageDays: 420,
    hue: 150,
    motif: "hexagon",
    pattern: "peaks",
  },
  {
    name: "Digital Detox Club",
    category: "wellness",
    tagline: "Take your attention back",
    description: "Screen-time challenges, phone-free weekends and tips to build a calmer relationship with technology.",
    rules: [BE_KIND, "Share your screen-time numbers honestly."],
    postCategories: [
      ["Challenges", "📵"],
      ["Tips", "💡"],
    ],
    owner: "tom_gallagher",
    members: 23,
    ageDays: 45,
    hue: 60,
    motif: "triangle",
    pattern: "waves",
  },
];

// prettier-ignore
const FIRST_NAMES = [
  "Aaliyah", "Adam", "Aisha", "Alex", "Amara", "Andre", "Anna", "Ben", "Carla", "Chloe",
  "Chris", "Dana", "David", "Diego", "Ella", "Emeka", "Emma", "Farah", "Felix", "Grace",
  "Hugo", "Ines", "Isaac", "Jade", "James", "Julia", "Kai", "Kenji", "Laura", "Leo",
  "Lina", "Lucas", "Mia", "Mila", "Nadia", "Noah", "Omar", "Paula", "Rosa", "Ruby",
  "Sara", "Sofia", "Theo", "Uma", "Victor", "Wei", "Yara", "Yusuf",
];
// prettier-ignore
const LAST_NAMES = [
  "Adams", "Ahmed", "Alvarez", "Berg", "Brown", "Campbell", "Costa", "Diaz", "Dubois", "Evans",
  "Ferreira", "Garcia", "Gupta", "Hansen", "Ito", "Jensen", "Kim", "Kowalski", "Lopez", "Mendes",
  "Meyer", "Moreau", "Murphy", "Nguyen", "Nielsen", "Ortiz", "Park", "Quinn", "Reyes", "Silva",
  "Singh", "Smith", "Sousa", "Taylor", "Torres", "Varga", "Walker", "Wong", "Young", "Zhang",
];
// prettier-ignore
const CITIES = [
  "Lisbon", "Toronto", "Berlin", "Austin", "Lagos", "Seoul", "Madrid", "Chicago", "Sydney", "Nairobi",
  "Oslo", "Manila", "Denver", "Bristol", "Lyon", "Osaka", "Porto", "Cape Town", "Montreal", "Warsaw",
];
// prettier-ignore
const HEADLINES = [
  "Designer", "Software engineer", "Teacher", "Nurse", "Student", "Marketing lead", "Product manager",
  "Photographer", "Writer", "Small business owner", "Accountant", "Coach", "Researcher", "Illustrator",
  "Data analyst", "Parent and part-time maker",
];

/** Everyone in the demo besides the two accounts that can sign in: the creators, then generated people. */
export const DEMO_PEOPLE_COUNT = 1200;

export type Person = { id: string; name: string; username: string; headline: string; bio: string; location: string };

function shuffle<T>(items: T[], rand: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** Unique names and usernames, the same ones every start (ids are fresh). */
export function demoPeople(count = DEMO_PEOPLE_COUNT): Person[] {
  const rand = prng(0x4ea27);
  const people: Person[] = DEMO_CREATORS.map((c) => ({ id: randomBytes(16).toString("hex"), ...c }));
  const used = new Set(people.map((p) => p.username));
  const pairs = shuffle(
    FIRST_NAMES.flatMap((f) => LAST_NAMES.map((l) => [f, l] as const)),
    rand,
  );
  for (const [first, last] of pairs) {
    if (people.length >= count) break;
    const username = `${first}_${last}`.toLowerCase();
    if (used.has(username)) continue;
    used.add(username);
    people.push({
      id: randomBytes(16).toString("hex"),
      name: `${first} ${last}`,
      username,
      headline: rand() < 0.45 ? HEADLINES[Math.floor(rand() * HEADLINES.length)] : "",
      bio: "",
      location: rand() < 0.6 ? CITIES[Math.floor(rand() * CITIES.length)] : "",
    });
  }
  if (people.length < count) throw new Error(`Only ${people.length} demo names available`);
  return people;
}

export type CommunityArt = { icon: string; cover: Buffer } | null;

/** Icons and covers, rendered ahead of the transaction (covers are WebP encodes on the thread pool). */
export function renderCommunityArt(list: readonly DemoCommunity[] = DEMO_COMMUNITIES): Promise<CommunityArt[]> {
  return Promise.all(
    list.map(async (c, i) => {
      if (c.settingUp) return null;
      const palette: Palette = paletteFor(c.hue);
      const cover = await renderCover(coverSvg({ palette, pattern: c.pattern, seed: i + 1 }));
      return { icon: iconSvg({ name: c.name, palette, motif: c.motif }), cover };
    }),
  );
}

/**
 * Many rows in one statement with one array parameter per column (INSERT ... SELECT FROM unnest):
 * no parameter limit, and no per-row query building, however many rows.
 */
export async function insertMany(db: Db | Tx, table: PgTable, columns: [column: PgColumn, values: unknown[]][]) {
  const names = sql.join(
    columns.map(([column]) => sql.identifier(column.name)),
    sql`, `,
  );
  const arrays = sql.join(
    columns.map(([column, values]) => sql`${sql.param(values)}::${sql.raw(column.getSQLType())}[]`),
    sql`, `,
  );
  await db.execute(sql`insert into ${table} (${names}) select * from unnest(${arrays})`);
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** How many admins and moderators a community of this size has (besides the owner). */
function staffFor(members: number): { admins: number; moderators: number } {
  if (members >= 1000) return { admins: 3, moderators: 4 };
  if (members >= 200) return { admins: 2, moderators: 3 };
  if (members >= 50) return { admins: 1, moderators: 2 };
  if (members >= 15) return { admins: 0, moderators: 1 };
  return { admins: 0, moderators: 0 };
}

/** Last activity: a few online right now (within the online window), many today or this month, some never. */
function lastActive(rand: () => number, joinedAt: Date, now: number): Date | null {
  const r = rand();
  let at: number;
  if (r < 0.05) at = now - rand() * 4 * MINUTE;
  else if (r < 0.25) at = now - rand() * DAY;
  else if (r < 0.85) at = now - rand() * 30 * DAY;
  else return null;
  return new Date(Math.max(at, joinedAt.getTime()));
}

export type MemberRow = {
  communityId: string;
  userId: string;
  role: CommunityRole;
  joinedViaInvite: boolean;
  joinedAt: Date;
  lastActiveAt: Date | null;
};

/** A demo community as seeded, for the content that goes into it (posts, likes, comments). */
export type SeededCommunity = {
  def: DemoCommunity;
  id: string;
  slug: string;
  createdAt: Date;
  ownerId: string;
  members: MemberRow[];
  categories: { id: string; name: string }[];
};

export type CommunitySeedResult = {
  people: number;
  communities: number;
  memberships: number;
  seeded: SeededCommunity[];
  /** Everyone besides the demo accounts (ids as inserted). */
  everyone: Person[];
};

function insertMembers(db: Db | Tx, rows: MemberRow[]) {
  return insertMany(db, communityMembers, [
    [communityMembers.communityId, rows.map((m) => m.communityId)],
    [communityMembers.userId, rows.map((m) => m.userId)],
    [communityMembers.role, rows.map((m) => m.role)],
    [communityMembers.joinedViaInvite, rows.map((m) => m.joinedViaInvite)],
    [communityMembers.joinedAt, rows.map((m) => m.joinedAt)],
    [communityMembers.lastActiveAt, rows.map((m) => m.lastActiveAt)],
  ]);
}

/**
 * The demo directory: people, communities with their art, post categories, and each community's
 * members (the owners and the demo accounts among them). Bulk inserts only: a
 * handful of statements however many rows. member_count is left to the database trigger.
 */
export async function seedCommunities(input: {
  tx: Tx;
  storage: Storage;
  /** Rendered while the rows go in; the files are written before the transaction commits. */
  art: Promise<CommunityArt[]>;
  accounts: Record<DemoAccount, { id: string; name: string }>;
  now?: Date;
}): Promise<CommunitySeedResult> {
  const { tx, storage, art, accounts } = input;
  const now = (input.now ?? new Date()).getTime();
  const rand = prng(0xc0ffee);
  const people = demoPeople();

  // Creators signed up before their oldest community (at most 900 days old); everyone else any time.
  const joinedHearth = people.map(
    (_, i) => new Date(now - (i < DEMO_CREATORS.length ? 1000 : 30 + rand() * 900) * DAY),
  );
  const signedUpAt = new Map(people.map((p, i) => [p.id, joinedHearth[i].getTime()]));
  await insertMany(tx, user, [
    [user.id, people.map((p) => p.id)],
    [user.name, people.map((p) => p.name)],
    [user.email, people.map((p) => `${p.username}@people.hearth.test`)],
    [user.emailVerified, people.map(() => true)],
    [user.createdAt, joinedHearth],
    [user.updatedAt, joinedHearth],
  ]);
  await insertMany(tx, userProfiles, [
    [userProfiles.userId, people.map((p) => p.id)],
    [userProfiles.username, people.map((p) => p.username)],
    [userProfiles.fullName, people.map((p) => p.name)],
    [userProfiles.headline, people.map((p) => p.headline)],
    [userProfiles.bio, people.map((p) => p.bio)],
    [userProfiles.location, people.map((p) => p.location)],
    [userProfiles.createdAt, joinedHearth],
  ]);
  await insertMany(tx, userNotificationSettings, [[userNotificationSettings.userId, people.map((p) => p.id)]]);

  const byUsername = new Map(people.map((p) => [p.username, p]));
  const ownerOf = (c: DemoCommunity) => {
    if (c.owner === "owner" || c.owner === "member") return accounts[c.owner];
    const p = byUsername.get(c.owner);
    if (!p) throw new Error(`Unknown demo creator ${c.owner}`);
    return p;
  };

  const communityRows: (typeof communities.$inferInsert)[] = [];
  const membersByCommunity: MemberRow[][] = [];
  const categoryRows: (typeof postCategories.$inferInsert)[] = [];
  const files: { index: number; iconKey: string; coverKey: string }[] = [];
  const allTasks = ONBOARDING_TASKS.map((t) => t.id);
  const seeded: SeededCommunity[] = [];

  DEMO_COMMUNITIES.forEach((c, index) => {
    const id = randomUUID();
    const owner = ownerOf(c);
    const createdAt = new Date(now - c.ageDays * DAY);
    let iconUrl: string | null = null;
    let coverUrl: string | null = null;
    if (!c.settingUp) {
      const iconKey = `community-assets/${id}/icon-${now}.svg`;
      const coverKey = `community-assets/${id}/cover-${now}.webp`;
      files.push({ index, iconKey, coverKey });
      iconUrl = storage.publicUrl(iconKey);
      coverUrl = storage.publicUrl(coverKey);
    }
    communityRows.push({
      id,
      name: c.name,
      slug: slugify(c.name),
      description: c.description,
      shortDescription: c.shortDescription ?? "",
      tagline: c.tagline,
      category: c.category,
      type: c.price ? "paid" : "free",
      price: c.price ?? 0,
      iconUrl,
      coverUrl,
      imageUrl: coverUrl,
      isFeatured: c.featured ?? false,
      creatorName: owner.name,
      website: c.website ?? null,
      visibility: c.visibility ?? "public",
      inviteCode: randomBytes(16).toString("base64url"),
      createdBy: owner.id,
      onboardingCompleted: !c.settingUp,
      onboardingTasksCompleted: c.settingUp ? ["description"] : allTasks,
      moderationEnabled: c.moderation ?? false,
      rules: c.rules,
      createdAt,
      updatedAt: createdAt,
    });
    const categories = c.postCategories.map(([name, emoji], orderIndex) => {
      const row = { id: randomUUID(), communityId: id, name, emoji, orderIndex };
      categoryRows.push(row);
      return { id: row.id, name };
    });

    const span = Math.max(now - MINUTE * 60 - createdAt.getTime(), MINUTE);
    // Nobody joins before the community or their own account existed.
    const joined = (since = 0) => new Date(Math.max(createdAt.getTime() + rand() * span, since));
    const privateCommunity = c.visibility === "private";
    const memberRows: MemberRow[] = [];
    membersByCommunity.push(memberRows);
    seeded.push({ def: c, id, slug: slugify(c.name), createdAt, ownerId: owner.id, members: memberRows, categories });
    memberRows.push({
      communityId: id,
      userId: owner.id,
      role: "owner",
      joinedViaInvite: false,
      joinedAt: createdAt,
      lastActiveAt: new Date(now - rand() * 3 * MINUTE),
    });
    for (const s of c.specials ?? []) {
      memberRows.push({
        communityId: id,
        userId: accounts[s.who].id,
        role: s.role,
        joinedViaInvite: s.viaInvite ?? privateCommunity,
        joinedAt: joined(),
        lastActiveAt: new Date(now - rand() * 3 * MINUTE),
      });
    }
    const others = c.members - 1 - (c.specials?.length ?? 0);
    const candidates = shuffle(
      people.filter((p) => p.id !== owner.id),
      rand,
    ).slice(0, others);
    if (candidates.length < others) throw new Error(`Not enough demo people for ${c.name}`);
    const staff = staffFor(c.members);
    const moderators = staff.moderators - (c.specials ?? []).filter((s) => s.role === "moderator").length;
    candidates.forEach((p, i) => {
      const role: CommunityRole = i < staff.admins ? "admin" : i < staff.admins + moderators ? "moderator" : "member";
      const joinedAt = joined(signedUpAt.get(p.id));
      memberRows.push({
        communityId: id,
        userId: p.id,
        role,
        // Members of a private community can only have come in with an invite.
        joinedViaInvite: privateCommunity || rand() < 0.06,
        joinedAt,
        lastActiveAt: lastActive(rand, joinedAt, now),
      });
    });
  });

  await tx.insert(communities).values(communityRows);
  // One statement: the member_count trigger runs once per statement (migration 0003).
  const memberRows = membersByCommunity.flat();
  await insertMembers(tx, memberRows);
  await tx.insert(postCategories).values(categoryRows);

  const pictures = await art;
  await Promise.all(
    files.flatMap(({ index, iconKey, coverKey }) => {
      const picture = pictures[index];
      if (!picture) throw new Error(`No artwork for ${DEMO_COMMUNITIES[index].name}`);
      return [
        storage.put(iconKey, Buffer.from(picture.icon, "utf8"), "image/svg+xml"),
        storage.put(coverKey, picture.cover, "image/webp"),
      ];
    }),
  );
  // Recorded like uploads: only recorded files are served.
  if (files.length) {
    await tx.insert(mediaFiles).values(
      files.flatMap(({ index, iconKey, coverKey }) => {
        const communityId = communityRows[index].id!;
        const ownerId = communityRows[index].createdBy ?? null;
        return [
          {
            key: iconKey,
            ownerId,
            communityId,
            purpose: "icon" as const,
            contentType: "image/svg+xml",
            size: Buffer.byteLength(pictures[index]!.icon),
          },
          {
            key: coverKey,
            ownerId,
            communityId,
            purpose: "cover" as const,
            contentType: "image/webp",
            size: pictures[index]!.cover.length,
          },
        ];
      }),
    );
  }
  return {
    people: people.length,
    communities: communityRows.length,
    memberships: memberRows.length,
    seeded,
    everyone: people,
  };
}
