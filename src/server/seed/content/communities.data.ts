import type { CommunityCategory } from "#shared/communities";
import type { CommunityRole } from "#shared/roles";
import type { CoverPattern, Motif } from "#server/seed/art";

// The demo directory's content: its creators, communities and the names its people are made from.
// Inserted by ../communities.ts.

/** The two demo accounts that can sign in; everyone else in the demo cannot (no credential). */
export type DemoAccount = "owner" | "member";

export type Creator = { username: string; name: string; headline: string; bio: string; location: string };

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

export type Owner = DemoAccount | (typeof DEMO_CREATORS)[number]["username"];

export type Special = { who: DemoAccount; role: Exclude<CommunityRole, "owner" | "guest">; viaInvite?: boolean };

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
  /** Takes requests to join: applicants answer these questions and an admin approves them. */
  requests?: { questions: string[] };
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
      "By request: works in progress, early drops and monthly critique calls with a small group of collectors and fellow makers.",
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

    // Private, and takes requests: its landing shows the questions, owner@hearth.test has some to answer.
    requests: {
      questions: [
        "What do you hope to learn here?",
        "What do you make, and where can we see it?",
        "How did you find the studio?",
      ],
    },
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
export const FIRST_NAMES = [
  "Aaliyah", "Adam", "Aisha", "Alex", "Amara", "Andre", "Anna", "Ben", "Carla", "Chloe",
  "Chris", "Dana", "David", "Diego", "Ella", "Emeka", "Emma", "Farah", "Felix", "Grace",
  "Hugo", "Ines", "Isaac", "Jade", "James", "Julia", "Kai", "Kenji", "Laura", "Leo",
  "Lina", "Lucas", "Mia", "Mila", "Nadia", "Noah", "Omar", "Paula", "Rosa", "Ruby",
  "Sara", "Sofia", "Theo", "Uma", "Victor", "Wei", "Yara", "Yusuf",
];
// prettier-ignore
export const LAST_NAMES = [
  "Adams", "Ahmed", "Alvarez", "Berg", "Brown", "Campbell", "Costa", "Diaz", "Dubois", "Evans",
  "Ferreira", "Garcia", "Gupta", "Hansen", "Ito", "Jensen", "Kim", "Kowalski", "Lopez", "Mendes",
  "Meyer", "Moreau", "Murphy", "Nguyen", "Nielsen", "Ortiz", "Park", "Quinn", "Reyes", "Silva",
  "Singh", "Smith", "Sousa", "Taylor", "Torres", "Varga", "Walker", "Wong", "Young", "Zhang",
];
// prettier-ignore
export const CITIES = [
  "Lisbon", "Toronto", "Berlin", "Austin", "Lagos", "Seoul", "Madrid", "Chicago", "Sydney", "Nairobi",
  "Oslo", "Manila", "Denver", "Bristol", "Lyon", "Osaka", "Porto", "Cape Town", "Montreal", "Warsaw",
];
// prettier-ignore
export const HEADLINES = [
  "Designer", "Software engineer", "Teacher", "Nurse", "Student", "Marketing lead", "Product manager",
  "Photographer", "Writer", "Small business owner", "Accountant", "Coach", "Researcher", "Illustrator",
  "Data analyst", "Parent and part-time maker",
];
