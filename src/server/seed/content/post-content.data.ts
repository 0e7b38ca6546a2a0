import type { PostPicture } from "#server/seed/art";

/**
 * The demo's post text: hand-written posts for every community, and the templates Creator Growth
 * Lab's thousand-odd posts are put together from. Plain text (the feed keeps line breaks).
 */

/** How the replies to a post sound: congratulations on a win, answers to a question, and so on. */
export type Tone = "question" | "win" | "share" | "intro" | "poll";

export type PollSpec = {
  options: string[];
  /** 0 = no time limit. */
  hours: number;
  /** Option indexes the demo accounts voted for. */
  votes?: { owner?: number; member?: number };
};

export type LinkSpec = { url: string; title: string; description: string };

/** One hand-written post. Unless `by` says otherwise, a member of the community wrote it. */
export type PostSpec = {
  text: string;
  /** Index into the community's post categories. */
  cat: number;
  /** The community's owner, a demo account (owner@ / member@), or one with this role. */
  by?: "creator" | "owner" | "member" | "admin";
  tone?: Tone;
  daysAgo?: number;
  pinned?: boolean;
  visibility?: "members" | "admins";
  pending?: boolean;
  video?: string;
  link?: LinkSpec;
  poll?: PollSpec;
  pictures?: string[];
  /** The first comments, in order (written by members); generic ones follow. */
  comments?: string[];
  /** How much attention it gets (likes, comments) against the community's usual. */
  buzz?: number;
};

// ---------------------------------------------------------------------------------------------
// Pictures: rendered at seed time (art.ts), stored like uploads.

export const DEMO_PICTURES: Record<string, { kind: PostPicture; hue: number; seed: number }> = {
  "watercolor-1": { kind: "painting", hue: 190, seed: 11 },
  "watercolor-2": { kind: "painting", hue: 330, seed: 12 },
  "watercolor-3": { kind: "painting", hue: 30, seed: 13 },
  "watercolor-4": { kind: "painting", hue: 110, seed: 14 },
  "watercolor-5": { kind: "painting", hue: 250, seed: 15 },
  "growth-bars": { kind: "bars", hue: 18, seed: 21 },
  "growth-line": { kind: "line", hue: 200, seed: 22 },
  "film-lake": { kind: "photo", hue: 28, seed: 31 },
  "plant-bowl": { kind: "bowl", hue: 20, seed: 41 },
  "studio-wip": { kind: "abstract", hue: 330, seed: 51 },
};

// ---------------------------------------------------------------------------------------------
// Videos and links: real public pages, never fetched by the seed (the embed loads in the browser).

export const VIDEOS = {
  sinek: "https://www.youtube.com/watch?v=u4ZoJKF_VuA",
  urban: "https://www.youtube.com/watch?v=arj7oStGLkU",
  brown: "https://www.youtube.com/watch?v=iCvmsMzlF7o",
  duckworth: "https://www.youtube.com/watch?v=H14bBuluwB8",
  treasure: "https://www.youtube.com/watch?v=eIho2S0ZahI",
  vimeoPlayer: "https://vimeo.com/76979871",
  vimeoMountain: "https://vimeo.com/22439234",
} as const;

export const LINKS = {
  trueFans: {
    url: "https://kk.org/thetechnium/1000-true-fans/",
    title: "1,000 True Fans",
    description:
      "To be a successful creator you don't need millions. You need only thousands of true fans: people who will buy anything you produce.",
  },
  dontScale: {
    url: "https://paulgraham.com/ds.html",
    title: "Do Things that Don't Scale",
    description:
      "One of the most common types of advice we give at Y Combinator is to do things that don't scale. Startups take off because the founders make them take off.",
  },
  makers: {
    url: "https://paulgraham.com/makersschedule.html",
    title: "Maker's Schedule, Manager's Schedule",
    description:
      "There are two types of schedule: the manager's, cut into one-hour intervals, and the maker's, which needs units of half a day at least.",
  },
  hellYeah: {
    url: "https://sive.rs/hellyeah",
    title: "No “yes.” Either “HELL YEAH!” or “no.”",
    description: "If you're not saying “HELL YEAH!” about something, say no. A simple rule for overcommitted people.",
  },
  fPattern: {
    url: "https://www.nngroup.com/articles/f-shaped-pattern-reading-web-content/",
    title: "F-Shaped Pattern of Reading on the Web",
    description:
      "Eyetracking research shows that people scan web pages in an F-shaped pattern. Write for scanners: front-load the words that matter.",
  },
  pandas: {
    url: "https://pandas.pydata.org/docs/user_guide/10min.html",
    title: "10 minutes to pandas",
    description: "A short introduction to pandas, geared mainly for new users.",
  },
  continuous: {
    url: "https://jamesclear.com/continuous-improvement",
    title: "Continuous Improvement: How It Works and How to Master It",
    description: "Small improvements add up. Why getting 1 percent better every day counts for a lot in the long run.",
  },
} satisfies Record<string, LinkSpec>;

// ---------------------------------------------------------------------------------------------
// Comments

export const COMMENTS: Record<Tone, string[]> = {
  question: [
    "Following, I've been wondering the same thing.",
    "What worked for me: pick one thing, do it for a month, then decide. Switching every week is what killed my progress.",
    "I had the same problem last year. Writing everything down in one place and reviewing it on Sundays fixed most of it.",
    "Start smaller than you think. Once it's a habit, add the next thing.",
    "Great question. Would love a summary of the answers here once people have chimed in.",
    "There was a thread about this a few weeks ago, worth a search. Short version: keep it simple.",
    "I asked the same thing when I joined. The answers here saved me months.",
    "Try it for two weeks and track it. You'll learn more than any advice can tell you.",
    "A fixed time on the calendar is what finally worked for me.",
    "Second this. Would love to hear from people a bit further along.",
    "Not an expert, but I'd focus on consistency before optimising anything.",
    "We tried both. The simpler option won, mostly because we actually stuck with it.",
    "It depends on your goal, but I'd start with whatever you can keep doing on a bad week.",
    "Honestly, the answer that helped me most was 'do less, but every week'.",
  ],
  win: [
    "Congrats!! 🎉 Well deserved.",
    "This is huge, congratulations!",
    "Love seeing this. What's next?",
    "So happy for you! Saving this for motivation.",
    "Amazing progress. How long did the first half take?",
    "Congrats! Thanks for sharing what worked, super useful.",
    "👏👏👏",
    "This made my day. Keep going!",
    "Well done! Proof that consistency pays off.",
    "Huge! Screenshot this for the hard days.",
    "Congratulations! You earned every bit of this.",
  ],
  share: [
    "Thanks for sharing this, really useful.",
    "Saving this one.",
    "This is great, thank you for writing it up.",
    "Really helpful breakdown.",
    "I'm going to try this this week.",
    "Interesting! Did you notice any downside?",
    "Love this. More posts like this please.",
    "This is exactly what I needed today.",
    "Super clear, thank you.",
    "Great point. I'd add: start before you feel ready.",
    "Did the same last month with similar results.",
    "Thank you! Would love an update in a few weeks.",
    "Hadn't thought about it this way. Thanks!",
  ],
  intro: [
    "Welcome! 👋",
    "Welcome aboard! Glad you found us.",
    "Hi and welcome! Love your niche.",
    "Welcome! The weekly threads are a great place to start.",
    "Great to have you here!",
    "Welcome! Post in Wins when you hit that goal.",
    "Hey, welcome! Let me know if you want a feedback swap.",
    "Welcome in! You're in the right place.",
  ],
  poll: [
    "Voted! Curious to see the results.",
    "Interesting split so far.",
    "Hard choice, went with my gut.",
    "Would love a follow-up post on why people picked what they did.",
    "Surprised by the results!",
    "I'd have picked two if I could.",
  ],
};

export const REPLIES = [
  "Thank you!",
  "Thanks, that's really helpful.",
  "Good point, hadn't thought of that.",
  "Agreed!",
  "Thanks! Will report back.",
  "Yes, exactly this.",
  "Haha, same here.",
  "Appreciate it 🙏",
  "Ooh, trying that tomorrow.",
  "Happy to help!",
  "That's a great idea, thanks.",
  "Same experience here.",
];

// ---------------------------------------------------------------------------------------------
// Creator Growth Lab: categories General 0, Wins 1, Experiments 2, Teardowns 3, Introductions 4.

export const GROWTH_LAB_SLUG = "creator-growth-lab";

/** Its hand-written posts: the pinned ones, the demo accounts' own, polls, pictures, pending. */
export const GROWTH_LAB_POSTS: PostSpec[] = [
  {
    by: "owner",
    cat: 0,
    pinned: true,
    daysAgo: 112,
    buzz: 5,
    tone: "intro",
    text:
      "Welcome to Creator Growth Lab! 👋\n\nStart here:\n1. Introduce yourself in Introductions: what you make, where, and one goal for this quarter.\n" +
      "2. Post your results in Wins, big or small.\n3. Running a test? Share the setup and the numbers in Experiments, even when it flops.\n" +
      "4. Want feedback on a page, a video or an email? Ask for a Teardown.\n\nOne rule above all: share what you tried and what happened, not just links.",
  },
  {
    by: "owner",
    cat: 0,
    pinned: true,
    daysAgo: 18,
    buzz: 3,
    tone: "poll",
    text: "Planning next month's live workshop. What should it cover? No time limit on this one: I'll pick the winner on the 1st.",
    poll: {
      hours: 0,
      options: ["Pricing your first product", "Editing faster", "Writing hooks", "Negotiating sponsorships"],
    },
  },
  {
    by: "member",
    cat: 0,
    pinned: true,
    daysAgo: 60,
    buzz: 2,
    text:
      "Mod note: the wins thread goes up every Friday. Post your wins there or in the Wins category so they're easy to find.\n\n" +
      "Self-promotion without context will be removed: tell us what you tried and what happened. Thanks for keeping this place useful! — Max",
  },
  {
    by: "owner",
    cat: 1,
    daysAgo: 9,
    buzz: 6,
    tone: "win",
    text:
      "We just passed 1,000 members in Creator Growth Lab. 🎉\n\nWhen I started this, I hoped for 50 people who would share real numbers. " +
      "Thank you for every experiment, teardown and honest 'this didn't work' post.",
  },
  {
    by: "owner",
    cat: 0,
    visibility: "admins",
    daysAgo: 5,
    text:
      "Admin team: for next month I'd like to try a theme week, one experiment everyone runs together. " +
      "Add ideas below before Friday, and say which week you can host the live call.",
  },
  {
    by: "admin",
    cat: 0,
    visibility: "admins",
    daysAgo: 27,
    text:
      "Heads up: a wave of 'collab' DMs with the same link is going around. I've removed three accounts this week. " +
      "If you see more, please report them rather than reply.",
  },
  {
    by: "owner",
    cat: 2,
    visibility: "members",
    daysAgo: 33,
    buzz: 2,
    text:
      "Members only: my full numbers from the 60-day newsletter referral test.\n\n" +
      "Cost: $310 in rewards (stickers and a mini guide). New subscribers from referrals: 1,140. Top 20 referrers brought 70% of them.\n\n" +
      "Would I do it again? Yes, but with one reward tier instead of four.",
  },
  {
    by: "owner",
    cat: 0,
    daysAgo: 75,
    buzz: 2,
    tone: "share",
    text: "Re-reading this every year. If you're stressing about follower counts, this is the antidote.\n\nhttps://kk.org/thetechnium/1000-true-fans/",
    link: LINKS.trueFans,
  },
  {
    by: "member",
    cat: 2,
    daysAgo: 14,
    buzz: 2,
    tone: "share",
    text:
      "Experiment results: I posted the same kind of short at 7am, 1pm and 8pm, three weeks each.\n\n" +
      "7am: best reach. 8pm: best comments. 1pm: worst at everything.\n\nSo now I post at 7am and reply to comments in the evening.",
  },
  {
    by: "member",
    cat: 3,
    daysAgo: 40,
    tone: "question",
    text:
      "Teardown request: my own channel trailer. 48 seconds, 2% of visitors subscribe after watching it. " +
      "I think the first 10 seconds are about me instead of about what viewers get. Be brutal!",
  },
  {
    cat: 1,
    daysAgo: 21,
    buzz: 3,
    tone: "win",
    pictures: ["growth-bars"],
    text:
      "12 months of newsletter growth, one bar per month. The jump at the end came from a single swap with a bigger newsletter in my niche. " +
      "Happy to share the email I sent them.",
  },
  {
    cat: 2,
    daysAgo: 48,
    buzz: 3,
    tone: "share",
    pictures: ["growth-line"],
    text:
      "30-day posting streak: daily views over the month. Flat for two weeks, then it compounds.\n\n" +
      "If you're in week two and ready to quit, this is your sign to keep going.",
  },
  {
    cat: 0,
    daysAgo: 2,
    buzz: 2,
    tone: "poll",
    text: "Vote for next month's group challenge! Voting is open for a week.",
    poll: {
      hours: 168,
      options: ["30 days of shorts", "A newsletter swap", "Rewrite your bio and pinned post", "One collab a week"],
    },
  },
  {
    cat: 0,
    daysAgo: 30,
    tone: "poll",
    text: "Quick poll: where do most of your new followers come from right now?",
    poll: {
      hours: 72,
      options: ["Search", "Recommendations and feeds", "Collaborations", "Other platforms"],
      votes: { member: 1 },
    },
  },
  {
    cat: 0,
    pending: true,
    daysAgo: 0.2,
    text: "Hey all! I made a free pack of 30 content calendar templates, link in my bio. Grab it before Friday!",
  },
  {
    cat: 4,
    pending: true,
    daysAgo: 1.1,
    text: "Hi everyone, I'm new here. I make cooking videos for students on a budget and I want to reach my first 1,000 subscribers this year.",
  },
];

export type Platform = { name: string; unit: string };

export const PLATFORMS: Platform[] = [
  { name: "YouTube", unit: "subscribers" },
  { name: "Instagram", unit: "followers" },
  { name: "TikTok", unit: "followers" },
  { name: "LinkedIn", unit: "followers" },
  { name: "Substack", unit: "subscribers" },
  { name: "Threads", unit: "followers" },
  { name: "Pinterest", unit: "followers" },
  { name: "Twitch", unit: "followers" },
  { name: "Bluesky", unit: "followers" },
  { name: "my podcast", unit: "listeners" },
];

export const NICHES = [
  "home cooking",
  "personal finance",
  "indie games",
  "watercolor",
  "productivity",
  "language learning",
  "woodworking",
  "beginner fitness",
  "budget travel",
  "UX design",
  "gardening",
  "book reviews",
  "parenting",
  "coding tutorials",
  "film photography",
  "minimalism",
  "board games",
  "career advice",
  "music production",
  "sustainable fashion",
];

export const MILESTONES = ["500", "1,000", "2,500", "5,000", "10,000", "25,000", "50,000", "100,000"];

export const GROWTH = {
  general: [
    "How do you decide what to post when you have zero ideas left?",
    "What's your system for batching content? I keep falling behind by Wednesday.",
    "Is it worth being on more than two platforms when you're under 5k followers?",
    "How do you handle negative comments without it ruining your day?",
    "Anyone else feel like their reach dropped this month?",
    "What do you use to schedule posts across platforms?",
    "When did you start charging for sponsorships, and how did you set your first rate?",
    "How long do you spend on a single thumbnail?",
    "Do you reply to every comment, or does that stop being possible at some point?",
    "What's one habit that made the biggest difference to your growth?",
    "Short-form or long-form first, if you could only pick one for a year?",
    "How do you measure whether a post actually worked?",
    "How do you find collaborators in your niche without it feeling transactional?",
    "What was the first thing you ever sold to your audience?",
    "Is a lead magnet still worth it? Mine converts at 2%.",
    "How do you stay consistent when life gets busy?",
    "What's the most underrated growth channel right now?",
    "How far ahead do you plan your content?",
    "Do you repurpose everything, or make native content for each platform?",
    "When did you stop checking your stats every day? I need tips.",
  ],
  context: [
    "For context: I post twice a week about {niche} on {platform}.",
    "I'm at about {count} {unit} on {platform}, mostly {niche} content.",
    "Asking because I'm about to plan next quarter.",
    "I've been making {niche} content for about a year.",
    "",
  ],
  closer: ["Would love to hear what works for you.", "Thanks in advance!", "Any advice appreciated.", "", ""],
  winOpeners: [
    "Just crossed {milestone} {unit} on {platform}! 🎉",
    "{milestone} {unit} on {platform} today. Still can't quite believe it.",
    "Milestone: {milestone} {unit}!",
  ],
  winContext: [
    "Took me 14 months.",
    "Six months ago I was at 200.",
    "This time last year I had just started.",
    "Slow for a year, then it clicked.",
    "Three months after going from weekly to three posts a week.",
  ],
  smallWins: [
    "Small win: my first sponsor email landed in my inbox today.",
    "Small win: my welcome email now gets a 68% open rate.",
    "Small win: someone I really admire shared my post.",
    "Small win: my first paid subscriber!",
    "Small win: a video I posted eight months ago is suddenly getting search traffic.",
    "Small win: I posted every day for 30 days without missing one.",
    "Small win: 50 people signed up for my first workshop.",
    "Small win: my first brand deal paid more than my day job does in a week.",
  ],
  worked: [
    "What moved the needle was posting at the same time every week.",
    "The biggest change: I rewrote every title as a promise instead of a topic.",
    "What worked: collaborating with two other creators in my niche.",
    "Turning my best posts into a free guide did more than anything else.",
    "Replying to every comment in the first hour made a bigger difference than I expected.",
    "I stopped chasing trends and made a series instead.",
    "Repurposing each long video into three shorts doubled my reach.",
  ],
  thanks: [
    "Thanks to everyone here who gave feedback on my {asset}.",
    "This group's feedback on my {asset} made the difference.",
    "",
  ],
  assets: ["thumbnails", "hooks", "welcome email", "bio", "landing page", "intro", "channel trailer", "lead magnet"],
  /** Experiments and results go together by medium (a subject line test reports opens, not watch time). */
  experiments: {
    video: [
      "cutting my videos from 12 minutes to 7",
      "face-free thumbnails",
      "subtitles burned into every short",
      "a 3-second hook with text on screen",
      "cross-posting the same short to three platforms",
      "going live once a week",
    ],
    newsletter: [
      "sending my newsletter on Sunday instead of Tuesday",
      "a referral program for my newsletter",
      "testing two subject lines on every send",
      "a one-question survey at the end of every issue",
    ],
    social: [
      "posting at 7am instead of 6pm",
      "adding a question at the end of every caption",
      "writing threads instead of single posts",
      "a pinned comment with a link to my lead magnet",
      "replying to every DM with a voice note",
      "carousels instead of single images",
    ],
  },
  durations: ["two weeks", "30 days", "six weeks", "a month", "three weeks", "two months"],
  results: {
    video: [
      "watch time up 22%, but views dropped a little.",
      "average view duration went from 38% to 51%.",
      "views doubled on the shorts, no change on the long videos.",
    ],
    newsletter: [
      "open rate went from 38% to 46%. Clicks stayed flat.",
      "fewer unsubscribes and more replies, which I did not expect.",
      "about 120 new subscribers, almost all from the referral link.",
    ],
    social: [
      "reach up 41%, saves doubled, follows barely moved.",
      "comments tripled, mostly from people who had never commented before.",
      "3x more profile visits, 2x more follows.",
    ],
    any: [
      "no measurable difference. Going back to what I did before.",
      "flat for two weeks, then one post took off and carried the month.",
    ],
  },
  lessons: [
    "My takeaway: the format matters less than the first line.",
    "Lesson: measure for longer than you think you need to.",
    "I think it worked because it forced me to be clear about who each post is for.",
    "Small sample, so take it with a grain of salt.",
    "Running it for another month to be sure.",
    "I would not have guessed this from the advice online.",
  ],
  asks: [
    "Has anyone tried the opposite?",
    "Curious if others saw the same.",
    "Happy to share the spreadsheet.",
    "What should I test next?",
    "",
  ],
  subjects: [
    "the landing page of a newsletter that grew to 40k in a year",
    "why this 30-second video has 2M views",
    "a creator's welcome email sequence (5 emails)",
    "the onboarding of a paid community I joined",
    "a YouTube channel that went from 0 to 100k in 10 months",
    "a podcast trailer that actually makes you want to subscribe",
    "the sales page of a course that sells well",
    "an Instagram carousel that got 9k saves",
  ],
  works: [
    "one clear promise above the fold and nothing competing with it.",
    "the first three seconds show the result before explaining anything.",
    "every email ends with one question, so people reply.",
    "it tells you exactly what you get in the first week.",
    "a consistent series format: you know what you're clicking on.",
    "social proof from people like you, not from famous names.",
    "it gives away the best idea for free and sells the implementation.",
  ],
  changes: [
    "the call to action is buried at the bottom.",
    "too many options: I'd cut the second tier.",
    "the thumbnail text is unreadable on a phone.",
    "the intro runs 40 seconds too long.",
    "it never says who it's not for.",
    "the headline is clever, not clear.",
  ],
  closings: [
    "Drop a link to something you want torn down next.",
    "What did I miss?",
    "Would love other takes on this one.",
    "",
  ],
  goals: [
    "My goal for this quarter: post consistently twice a week.",
    "I joined to get honest feedback on my hooks.",
    "Hoping to hit my first 1,000 this year.",
    "I want to turn my audience into a small paid product.",
    "Here to learn from people a few steps ahead of me.",
    "I'm restarting after a year off and want some accountability.",
  ],
  hobbies: [
    "Outside of that I'm usually hiking.",
    "Happy to help anyone with editing questions.",
    "Say hi if you're in the same niche!",
    "Looking forward to the weekly experiments.",
    "I can help with design and thumbnails if anyone needs a hand.",
    "",
  ],
  videos: [
    { url: VIDEOS.sinek, text: "Start with why. I rewrote my channel trailer after rewatching this." },
    {
      url: VIDEOS.urban,
      text: "For everyone who is behind on their content plan this week. The panic monster is real 😅",
    },
    { url: VIDEOS.brown, text: "Why my posts about failures always outperform the polished ones." },
    {
      url: VIDEOS.duckworth,
      text: "Consistency beats talent. Six minutes worth watching before you quit your channel.",
    },
    {
      url: VIDEOS.treasure,
      text: "If you record voiceovers or a podcast, this talk on speaking so people want to listen is gold.",
    },
    { url: VIDEOS.vimeoPlayer, text: "A great example of a short product video: 90 seconds and not one wasted frame." },
    {
      url: VIDEOS.vimeoMountain,
      text: "Not about growth, but this timelapse reminds me that slow, steady work adds up.",
    },
  ],
  videoIntros: ["", "Rewatched this today. ", "Sharing this again for the new members. ", "Worth your time: "],
  links: [
    { link: LINKS.trueFans, text: "Still the best thing written about building an audience." },
    {
      link: LINKS.dontScale,
      text: "Written for startups, but it's the best advice for creators too: reply to people one by one.",
    },
    { link: LINKS.makers, text: "Why I stopped taking calls on my filming days." },
    { link: LINKS.continuous, text: "1% better every week is how every channel I admire grew." },
    { link: LINKS.fPattern, text: "If your captions are long, this explains why nobody reads past line two." },
    { link: LINKS.hellYeah, text: "My rule for brand deals now. Saying no to most of them made the rest better." },
  ],
  linkIntros: [
    "",
    "Sharing for the new folks: ",
    "Bookmark this one. ",
    "Came across this again today. ",
    "Old but gold. ",
  ],
  polls: [
    {
      text: "How often do you post on your main platform?",
      options: ["Every day", "3-5 times a week", "Once or twice a week", "Less than weekly"],
    },
    { text: "Biggest blocker this month?", options: ["Ideas", "Time", "Editing", "Confidence", "Consistency"] },
    {
      text: "Do you use a content calendar?",
      options: ["Yes, planned weeks ahead", "Loosely", "No, I post when inspired"],
    },
    {
      text: "What are you monetizing first?",
      options: ["Sponsorships", "A digital product", "Coaching or services", "A paid community", "Not yet"],
    },
    { text: "Best day to send a newsletter?", options: ["Monday", "Tuesday", "Thursday", "Saturday", "Sunday"] },
    { text: "How long are your videos?", options: ["Under 5 min", "5-10 min", "10-20 min", "Over 20 min"] },
    { text: "Do you show your face in your content?", options: ["Always", "Sometimes", "Never"] },
    { text: "How many hours a week do you spend on content?", options: ["Under 5", "5-10", "10-20", "20+"] },
    {
      text: "Which platform are you betting on this year?",
      options: ["YouTube", "Instagram", "TikTok", "LinkedIn", "A newsletter", "A podcast"],
    },
    { text: "Do you batch-record content?", options: ["Yes, weekly", "Yes, monthly", "No, one at a time"] },
    {
      text: "How did you find Creator Growth Lab?",
      options: ["A friend", "Olivia's newsletter", "Search", "Social media"],
    },
    {
      text: "What do you check first in your analytics?",
      options: ["Views", "Watch time or read time", "New followers", "Revenue", "I don't check"],
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// Every other community (by slug). Sketchbook Sundays has none: it is still being set up, and its
// checklist's "Write your first post" is still open.

export const COMMUNITY_POSTS: Record<string, PostSpec[]> = {
  "indie-founders-club": [
    {
      by: "creator",
      cat: 1,
      pinned: true,
      daysAgo: 40,
      text: "Hot seat schedule for this month is up. Each founder gets 20 minutes: 5 to present, 15 for questions and ideas. Reply here to claim a slot.",
    },
    {
      cat: 2,
      tone: "win",
      text: "Raised prices from $19 to $29 on our invoicing tool last week. 4 cancellations out of ~600 customers, MRR up 38%. Why did I wait a year?",
    },
    {
      cat: 0,
      tone: "question",
      text: "How are you all handling sales tax for digital products sold in many countries? A merchant of record, or doing it yourselves?",
    },
    {
      cat: 3,
      tone: "question",
      text: "Hiring my first part-time support person. Contractor or employee for the first hire, and how many hours a week did you start with?",
    },
    {
      cat: 1,
      text: "Hot seat recap from Thursday: we tore apart my onboarding. Biggest takeaway: people don't need a tour, they need their first report in under 5 minutes.",
    },
    {
      by: "creator",
      cat: 0,
      visibility: "members",
      text: "Members only: the spreadsheet I use to track monthly numbers (MRR, churn, support hours) is in this month's files. Copy it and make it yours.",
    },
    {
      cat: 0,
      tone: "share",
      text: "Rule I'm adopting this quarter: no meetings before noon. Building happens in the morning.\n\nhttps://paulgraham.com/makersschedule.html",
      link: LINKS.makers,
    },
  ],
  "studio-insiders": [
    {
      by: "creator",
      cat: 0,
      daysAgo: 6,
      buzz: 2,
      pictures: ["studio-wip"],
      text: "Work in progress for the spring series. Trying a warmer palette than last year. Still unsure about the shape in the top right: too much?",
    },
    {
      by: "creator",
      cat: 2,
      pinned: true,
      daysAgo: 20,
      text: "Drop day is the 15th. You get first pick for 48 hours before anything goes public. Prints are limited to 25 each.",
    },
    {
      cat: 1,
      tone: "question",
      text: "Critique request: I keep overworking my backgrounds. At what point do you stop?",
    },
    {
      cat: 0,
      text: "Finally finished the big canvas I mentioned on the last call. Three months, two restarts. Photos this weekend in proper light.",
    },
    { cat: 1, text: "Thank you for the notes on Thursday's call. Cropping tighter made the whole piece work." },
  ],
  "watercolor-collective": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      daysAgo: 25,
      text:
        "This week's prompts: Monday a single flower, Tuesday your window view, Wednesday something blue, Thursday a cup, " +
        "Friday the same scene twice: once in 10 minutes, once in 30. Share them all in one post!",
    },
    {
      cat: 3,
      daysAgo: 3,
      buzz: 4,
      tone: "win",
      pictures: ["watercolor-1", "watercolor-2", "watercolor-3", "watercolor-4", "watercolor-5"],
      text:
        "All five of this week's prompts in one go! Wet-on-wet skies are finally starting to click. " +
        "The last one was the 10-minute version and I like it better than the slow one 😅",
    },
    {
      by: "owner",
      cat: 1,
      tone: "question",
      daysAgo: 11,
      text: "Critique please: my greens always turn muddy when I layer them. I'm using a student set. Is it the paint or my patience?",
      comments: [
        "Probably patience 😄 Let each layer dry completely, and mix your greens from a blue and a yellow instead of using the tube green.",
        "Student paints have more filler, so they lift and mix into mud faster. One artist-grade yellow and blue made a big difference for me.",
      ],
    },
    {
      cat: 2,
      text: "Paper matters more than paint. Switched to 100% cotton paper last month and suddenly my washes behave. Worth it if you're choosing one upgrade.",
    },
    {
      by: "creator",
      cat: 0,
      text: "Live demo this Saturday at 5pm UTC: loose florals in three colours. Bring a round brush and a spray bottle.",
    },
    {
      cat: 3,
      tone: "win",
      text: "First painting I'm actually proud of after four months of daily prompts. Thanks for all the gentle feedback here.",
    },
    {
      cat: 1,
      tone: "question",
      text: "How do you keep your whites white? Masking fluid, or just painting around them?",
    },
  ],
  "film-photography-club": [
    {
      by: "member",
      cat: 0,
      daysAgo: 8,
      buzz: 3,
      pictures: ["film-lake"],
      text: "First roll through my dad's old Olympus OM-1. Portra 400, shot at dusk at the lake. Scanned at home, so forgive the dust.",
    },
    {
      by: "creator",
      cat: 1,
      pinned: true,
      text: "Home developing starter list: changing bag, tank and reels, thermometer, measuring cylinders and fresh fixer. That's all you need for black and white.",
    },
    { cat: 1, tone: "question", text: "Has anyone switched from Rodinal to HC-110? Worth it for HP5 pushed to 1600?" },
    {
      cat: 2,
      text: "Roll-swap challenge this month: shoot the first 18 frames, rewind, post it to your swap partner. Sign up in the comments!",
    },
    {
      cat: 2,
      tone: "question",
      text: "Best budget scanning setup in your opinion? Flatbed, or a digital camera with a macro lens?",
    },
    {
      cat: 0,
      tone: "win",
      text: "Expired Ektachrome from 2004 actually came out! Weird colour shifts, but I love it.",
    },
  ],
  "freelance-forward": [
    {
      by: "creator",
      cat: 2,
      pinned: true,
      text:
        "The proposal template I've used for 8 years has three sections: the problem in the client's words, the outcome, " +
        "and three options with prices. That's it. Full template in the comments.",
    },
    {
      cat: 1,
      tone: "question",
      text: "Client asked for a 'quick logo refresh' for $200. How do you politely explain why that isn't a thing?",
    },
    {
      cat: 3,
      tone: "win",
      text: "Got paid 90 days late... but I got paid! The late fee clause in my contract did the work. Add one if you haven't.",
    },
    {
      cat: 1,
      tone: "share",
      text: "Switched from hourly to project pricing this quarter. Same hours, 30% more revenue, and clients stopped questioning my timesheets.",
    },
    {
      cat: 0,
      tone: "share",
      text: "The rule I use for every new project now.\n\nhttps://sive.rs/hellyeah",
      link: LINKS.hellYeah,
    },
    { cat: 0, tone: "question", text: "How many hours a week do you spend on admin? I'm at 10 and it's killing me." },
    {
      cat: 3,
      text: "A client I let go two years ago just referred me a big project. Be kind even when you're walking away.",
    },
  ],
  "small-shop-owners": [
    {
      by: "creator",
      cat: 2,
      pinned: true,
      text: "The monthly showcase thread is open! One post per shop: a photo, a line about what you sell, and a link. Go!",
    },
    {
      cat: 1,
      tone: "question",
      text: "Anyone have a reliable supplier for soy wax in the EU? Our usual one doubled their prices.",
    },
    {
      cat: 0,
      tone: "share",
      text: "Slow January tip: we run a 'studio clean-out' sale of seconds. Cleared 60% of the stock and brought back a lot of old customers.",
    },
    {
      cat: 0,
      tone: "question",
      text: "Do you offer free shipping over a threshold, or bake it into prices? Testing both next month.",
    },
    {
      cat: 1,
      text: "Switched to recycled mailers this spring. Cost 8% more, and three reviews mentioned them by name.",
    },
  ],
  "consulting-playbook": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "Productize one thing this quarter. Not your whole practice: one repeatable offer with a fixed scope, a fixed price and a clear end date.",
    },
    {
      cat: 1,
      tone: "share",
      text: "Discovery call script that works for me: ask about the cost of doing nothing before you talk about your fee. Changes the whole conversation.",
    },
    {
      cat: 2,
      tone: "win",
      text: "Case study: a fixed-fee process audit for a 40-person logistics firm. 3 weeks, €12k, and it turned into a 6-month retainer.",
    },
    {
      cat: 0,
      tone: "question",
      text: "How do you package a follow-up phase without it turning into open-ended hourly work?",
    },
    {
      cat: 1,
      tone: "question",
      text: "A prospect asked for a detailed proposal before a second call. Do you send it, or insist on the call first?",
    },
  ],
  "personal-finance-101": [
    {
      by: "creator",
      cat: 1,
      pinned: true,
      daysAgo: 50,
      buzz: 3,
      text:
        "Start here. The order I suggest to everyone:\n1. A small emergency fund of one month's expenses.\n2. Pay off high-interest debt.\n" +
        "3. Grow the emergency fund to 3-6 months.\n4. Invest for the long term in low-cost index funds.\n\nSimple, not easy.",
    },
    {
      cat: 0,
      daysAgo: 1,
      tone: "poll",
      text: "How big is your emergency fund right now? Poll open for a week.",
      poll: {
        hours: 168,
        options: ["Nothing yet", "Less than a month of expenses", "1-3 months", "3-6 months", "More than 6 months"],
        votes: { member: 2 },
      },
    },
    {
      by: "member",
      cat: 0,
      daysAgo: 12,
      tone: "question",
      text: "Is it silly to invest while I still have a car loan at 4.9%? Everything I read says something different.",
      comments: [
        "Not silly. At 4.9% it's close to a coin flip. Many people split it: extra payments on the loan and a small monthly investment.",
        "Make sure the emergency fund is there first. After that, paying off a 4.9% loan is a guaranteed 4.9% return.",
      ],
    },
    {
      cat: 3,
      tone: "win",
      text: "Paid off my last credit card today. £8,400 in 19 months. The snowball method kept me going when the maths alone didn't.",
    },
    {
      cat: 2,
      tone: "question",
      text: "Accumulating or distributing ETF for a 25-year horizon? I don't need the income.",
    },
    {
      cat: 1,
      tone: "share",
      text: "'Pay yourself first' changed everything for us: savings leave the account the day after payday, so we budget with what's left.",
    },
    {
      cat: 3,
      tone: "win",
      text: "Emergency fund hit 3 months of expenses. First time in my life I'm not scared of an unexpected bill.",
    },
    {
      cat: 0,
      tone: "question",
      text: "What do you do with a small windfall? Got a €2,000 tax refund and I'm torn between debt and savings.",
    },
  ],
  "dividend-investors-circle": [
    {
      by: "creator",
      cat: 2,
      pinned: true,
      text: "Monthly income report template: total dividends received, change on last year, yield on cost, and one thing you learned. Rounded numbers are fine.",
    },
    {
      cat: 2,
      tone: "win",
      text: "October income report: €412 in dividends, up 18% on last year. Reinvested all of it.",
    },
    {
      cat: 1,
      tone: "question",
      text: "What's your maximum position size? I'm at 8% in one utility and starting to feel nervous.",
    },
    {
      cat: 0,
      text: "Portfolio review: 24 holdings, 3.4% yield, average dividend growth 6%. Thinking of trimming to 15 positions.",
    },
    {
      cat: 1,
      tone: "share",
      text: "Reminder: a high yield is often a warning sign. Check the payout ratio and the debt before anything else.",
    },
  ],
  "frugal-family-budgets": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "Share your monthly numbers! Format: family size, grocery spend, one win, one struggle. No judgement here.",
    },
    {
      cat: 1,
      daysAgo: 20,
      tone: "poll",
      text: "What's your weekly grocery budget for a family of four?",
      poll: { hours: 72, options: ["Under $150", "$150-200", "$200-250", "Over $250"] },
    },
    {
      cat: 1,
      tone: "share",
      text: "Plan meals around what's on sale, not the other way round. Saves us about $60 a week.",
    },
    {
      cat: 0,
      text: "Family of 5, October: groceries $690, eating out $40. Win: batch cooking on Sundays. Struggle: school events.",
    },
    {
      cat: 0,
      tone: "question",
      text: "How do you handle birthday party gifts? It adds up so fast with three kids.",
    },
    {
      cat: 1,
      tone: "share",
      text: "Tip: a 'use it up' shelf in the fridge. Anything that needs eating first goes there, and the kids know to look there first.",
    },
  ],
  "strength-after-40": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "Beginner program: three full-body sessions a week. Squat, push, hinge, pull, carry. Add a little weight when the last set feels easy. That's it for the first 12 weeks.",
    },
    {
      by: "creator",
      cat: 0,
      tone: "share",
      video: VIDEOS.duckworth,
      text: "Not a workout video, but this talk on grit is why I keep saying consistency beats intensity. Watch it before your next session.",
    },
    {
      cat: 0,
      tone: "win",
      text: "Week 30 log: deadlift 100 kg for 5 at 52 years old. Started with the empty bar.",
    },
    {
      cat: 1,
      tone: "question",
      text: "My knee caves in slightly on the last rep of squats. Cue suggestions? Filming it this weekend for a proper form check.",
    },
    {
      cat: 2,
      tone: "question",
      text: "How much sleep do you all get? Recovery has been my weak point since I turned 45.",
    },
    {
      cat: 2,
      text: "Deload week done and I feel fresh again. Should have listened to my body two weeks earlier.",
    },
    {
      cat: 0,
      tone: "win",
      text: "Six months in: 6 kg lighter, back pain gone, and I carry all the groceries in one trip. 💪",
    },
  ],
  "plant-based-kitchen": [
    {
      cat: 0,
      daysAgo: 4,
      buzz: 3,
      tone: "share",
      pictures: ["plant-bowl"],
      text:
        "Tonight's sweet potato and chickpea bowl: roasted sweet potato, crispy chickpeas, greens, edamame and a tahini-lemon dressing. " +
        "25 minutes, serves 2.",
    },
    {
      by: "creator",
      cat: 1,
      pinned: true,
      text: "Sunday meal prep formula: one grain, one bean, two roasted vegetables, one sauce. Mix and match all week.",
    },
    {
      cat: 2,
      tone: "question",
      text: "How do you get enough protein without protein powder? Aiming for about 100 g a day.",
    },
    {
      cat: 0,
      tone: "share",
      text: "The red lentil dal my meat-loving family asks for every week: lentils, tinned tomatoes, coconut milk, garlic, ginger, garam masala. Simmer 20 minutes. Done.",
    },
    {
      cat: 2,
      tone: "question",
      text: "Best tofu press alternative? Two plates and a pile of cookbooks is not working.",
    },
    { cat: 1, text: "Freezer burritos: made 16 yesterday. Beans, rice, peppers, salsa. Lunches sorted for a month." },
  ],
  "sleep-better-project": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "Week 3 check-in: how's the 'no screens 30 minutes before bed' rule going? Share your average bedtime this week.",
    },
    {
      cat: 0,
      tone: "share",
      text: "Week 2 check-in: caffeine cut-off at noon. Falling asleep 20 minutes faster on average, according to my diary.",
    },
    {
      cat: 1,
      tone: "question",
      text: "I wake up at 4am every night and can't get back to sleep. Has anyone fixed this?",
    },
    {
      cat: 0,
      tone: "win",
      text: "Ten days of a morning light walk. Waking up before my alarm, which has never happened before.",
    },
    {
      cat: 1,
      tone: "question",
      text: "Is a sleep tracker worth it, or does it just make you anxious about sleep?",
    },
  ],
  "run-your-first-marathon": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "Long run Sunday! Post your distance and one word for how it felt. Walk breaks count as running.",
    },
    {
      cat: 1,
      daysAgo: 35,
      tone: "poll",
      text: "What's your long-run fuel?",
      poll: { hours: 168, options: ["Gels", "Chews", "Real food (bananas, dates)", "Nothing, just water"] },
    },
    {
      cat: 2,
      tone: "win",
      buzz: 3,
      text: "Race report: finished my first marathon in 4:51! Hit the wall at 34 km, walked a bit, ran the last 3 km crying. Thank you all.",
    },
    { cat: 0, tone: "win", text: "30 km done. Slowest yet, but no knee pain for the first time in this block." },
    {
      cat: 1,
      tone: "question",
      text: "Shoe rotation: do I really need two pairs? My current pair has about 500 km on it.",
    },
    {
      cat: 0,
      tone: "question",
      text: "Anyone else get really hungry the day after long runs? I eat everything in sight.",
    },
  ],
  "newsletter-operators": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "Growth basics thread: what's your number one channel? Reply with your list size and where most new readers came from last month.",
    },
    {
      by: "creator",
      cat: 0,
      daysAgo: 15,
      tone: "poll",
      text: "Where do your new subscribers come from? No time limit on this one: I'll share a summary next month.",
      poll: {
        hours: 0,
        options: [
          "Social posts",
          "Recommendations from other newsletters",
          "Search",
          "Referral program",
          "Word of mouth",
        ],
        votes: { owner: 1 },
      },
    },
    {
      cat: 1,
      tone: "win",
      text: "First sponsor at 3,000 subscribers: $150 per issue, and they renewed for three months. Don't wait for 10k to start pitching.",
    },
    {
      cat: 2,
      text: "Looking for swap partners! Weekly newsletter about slow travel, 4,800 subscribers, 52% open rate.",
    },
    {
      cat: 3,
      tone: "question",
      text: "Thinking of moving platforms. Has anyone migrated with a paid tier? How did it go?",
    },
    {
      by: "owner",
      cat: 0,
      tone: "share",
      text: "The essay I send to every new newsletter writer. You don't need a huge list.\n\nhttps://kk.org/thetechnium/1000-true-fans/",
      link: LINKS.trueFans,
    },
    {
      cat: 1,
      tone: "question",
      text: "How do you price a sponsorship? I've seen $25 per thousand opens as a starting point.",
    },
  ],
  "short-form-video-lab": [
    {
      by: "creator",
      cat: 1,
      pinned: true,
      text: "A hook that works on every platform: show the end result in the first second, then tell them how you got there.",
    },
    {
      by: "creator",
      cat: 2,
      tone: "share",
      video: VIDEOS.vimeoPlayer,
      text: "Study the pacing on this one: 90 seconds, no wasted frame, every cut motivated by the voiceover.",
    },
    {
      cat: 0,
      tone: "question",
      text: "Feedback please! 22-second recipe short. Retention drops hard at second 4. Too slow to get to the food?",
    },
    {
      cat: 2,
      tone: "question",
      text: "Which editor do you use for shorts? I'm wasting hours on captions.",
    },
    {
      cat: 1,
      tone: "win",
      buzz: 2,
      text: "Rewrote my hook from 'Here are 3 tips' to 'I wasted 2 years doing this wrong'. Same video, 6x the views.",
    },
    {
      cat: 0,
      text: "Giving feedback on 5 videos tonight. Drop yours below with what you want feedback on.",
    },
  ],
  "seo-for-humans": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "Before asking about rankings: does your page answer the search better than the top three results? Start there.",
    },
    {
      cat: 0,
      tone: "share",
      text: "Still the best research on how people actually read on the web. Write for scanners first.\n\nhttps://www.nngroup.com/articles/f-shaped-pattern-reading-web-content/",
      link: LINKS.fPattern,
    },
    {
      cat: 1,
      tone: "question",
      text: "Site review request: a small bakery website that ranks for nothing. What would you fix first?",
    },
    { cat: 0, tone: "question", text: "How many internal links per post is too many?" },
    {
      cat: 0,
      tone: "win",
      text: "Updated 12 old posts with better titles and fresh examples. Organic traffic up 35% in 6 weeks.",
    },
  ],
  "python-for-data-people": [
    {
      by: "creator",
      cat: 2,
      pinned: true,
      tone: "share",
      text: "New to pandas? Start with the official 10-minute guide, then come back with questions.\n\nhttps://pandas.pydata.org/docs/user_guide/10min.html",
      link: LINKS.pandas,
    },
    {
      by: "member",
      cat: 0,
      daysAgo: 6,
      tone: "question",
      text: "My groupby returns a MultiIndex and I can't get back to a normal DataFrame. What am I missing?",
      comments: [
        "Add .reset_index() at the end, or pass as_index=False to groupby().",
        "If you used .agg with several functions you'll also get MultiIndex columns. Flatten them with a list comprehension over df.columns.",
      ],
    },
    {
      cat: 1,
      tone: "win",
      text: "Automated my team's weekly Excel report with pandas and openpyxl. 3 hours every Monday down to a 40-second script.",
    },
    {
      cat: 3,
      tone: "intro",
      text: "Hi all! Analyst at a logistics company, mostly Excel so far. Goal: stop copy-pasting between spreadsheets by the end of the year.",
    },
    {
      cat: 0,
      tone: "question",
      text: "Jupyter or VS Code for notebooks? Mine keep getting messy.",
    },
    {
      cat: 1,
      text: "Weekend project: plotted 10 years of my city's air quality data with matplotlib. Winters are so much worse than I thought.",
    },
    {
      cat: 2,
      tone: "share",
      text: "Tip: df.info() and df.describe() before anything else. Saves so much confusion later.",
    },
  ],
  "indie-hackers-build-club": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "Monthly ship goal thread: one thing you'll ship by the end of the month. Be specific. We check in on the last Friday.",
    },
    {
      cat: 0,
      tone: "share",
      text: "Re-read this before my launch. Recruiting users by hand is not a phase to skip.\n\nhttps://paulgraham.com/ds.html",
      link: LINKS.dontScale,
    },
    {
      cat: 1,
      tone: "win",
      buzz: 2,
      text: "Launched my invoice tool yesterday! 41 sign-ups, 3 paying customers. Not life-changing, but it's real money from strangers.",
    },
    {
      cat: 2,
      tone: "question",
      text: "Feedback wanted on my landing page headline: 'Simple invoicing for freelancers who hate invoicing.' Too cute?",
    },
    { cat: 0, text: "Build log, week 6: rewrote auth for the third time. Using a library next time." },
    { cat: 0, tone: "win", text: "$1,000 MRR after 14 months. Thank you all for the accountability." },
  ],
  "home-lab-self-hosting": [
    {
      by: "creator",
      cat: 3,
      pinned: true,
      text: "The 3-2-1 rule: three copies of your data, on two different media, one off-site. And test the restore, or it isn't a backup.",
    },
    {
      cat: 0,
      daysAgo: 25,
      tone: "poll",
      text: "What's running your home lab?",
      poll: { hours: 72, options: ["Raspberry Pi", "Mini PC", "Old laptop or desktop", "Rack server", "NAS only"] },
    },
    {
      cat: 0,
      tone: "share",
      text: "New setup: two mini PCs running Proxmox, a 4-bay NAS for media and backups, all on a small UPS. Silent, and about 40 W.",
    },
    {
      cat: 1,
      tone: "question",
      text: "Reverse proxy recommendations for a beginner? Caddy, Traefik or Nginx Proxy Manager?",
    },
    {
      cat: 2,
      text: "Finally moved my smart-home devices onto their own VLAN. Took a weekend and two lockouts, but worth it.",
    },
    {
      cat: 3,
      tone: "win",
      text: "Restored my whole photo library from the off-site backup after a disk died. Zero files lost. Test your backups, people!",
    },
    {
      cat: 1,
      tone: "question",
      text: "My containers lose their data on restart. I think I'm missing volumes, but where?",
    },
  ],
  "ai-tools-for-teachers": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "Review format: the tool, what you used it for, time saved, and one thing it got wrong. Never paste student data into any tool.",
    },
    {
      cat: 1,
      tone: "share",
      text: "Made three reading-level versions of the same article for my Year 8 class. Took 10 minutes instead of an hour.",
    },
    {
      cat: 0,
      text: "Honest review: the quiz generator was great for vocabulary, useless for maths. Wrong answers on 3 of 10 questions.",
    },
    {
      cat: 1,
      tone: "question",
      text: "How are you teaching students to check AI answers? Looking for a simple lesson plan.",
    },
    {
      cat: 0,
      text: "Tried AI feedback on essays as a first pass. Helpful for structure, but I still read every one. The students noticed the difference.",
    },
  ],
  "mindful-mornings": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "Today's practice: ten minutes of counting breaths from one to ten, then starting again. When you lose count, that's the practice.",
    },
    {
      by: "creator",
      cat: 0,
      tone: "share",
      video: VIDEOS.vimeoMountain,
      text: "Before today's sit: watch this slowly, with a cup of tea. Night skies over the mountains, no words.",
    },
    {
      cat: 1,
      text: "Grateful for: a quiet kitchen, warm coffee, and this group showing up every morning.",
    },
    {
      by: "member",
      cat: 2,
      daysAgo: 9,
      tone: "question",
      text: "How do you keep practising when mornings are chaotic? I have kids and ten minutes feels impossible some days.",
    },
    {
      cat: 1,
      tone: "win",
      text: "Day 100 of practice. I don't feel calm all the time, but I notice sooner when I'm not.",
    },
    { cat: 2, tone: "question", text: "Eyes open or closed? I fall asleep with them closed." },
    { cat: 1, text: "Grateful today for the sunrise on the bus and a friend who checked in." },
  ],
  "journaling-circle": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "This week's prompt: what did you stop doing this year that made your life better?",
    },
    {
      cat: 1,
      tone: "share",
      text: "Three months of morning pages. Most of it is nonsense, but every week there's one line that changes how I see something.",
    },
    {
      cat: 0,
      text: "Prompt idea: write a letter to yourself from one year ago. What would they need to hear?",
    },
    {
      cat: 1,
      tone: "share",
      text: "Switched from a fancy notebook to cheap ones. I write so much more now that I'm not afraid to ruin it.",
    },
    { cat: 1, tone: "question", text: "Do you reread your old journals? I'm scared to." },
  ],
  "yoga-for-desk-workers": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "5-minute desk routine: neck rolls, seated cat-cow, a seated twist each side, wrist circles, standing forward fold. Set a timer for every 90 minutes.",
    },
    {
      cat: 2,
      tone: "win",
      text: "Two weeks of the lunch routine and my afternoon back ache is gone. Colleagues have started joining me!",
    },
    {
      cat: 1,
      tone: "question",
      text: "Tight hips from sitting all day, but pigeon pose hurts my knee. Alternatives?",
    },
    { cat: 0, text: "Added legs-up-the-wall for five minutes after work. Best part of my day." },
    { cat: 1, tone: "question", text: "Any stretches for wrists? Typing all day is catching up with me." },
    { cat: 2, tone: "win", text: "Month three: I touched my toes for the first time since school." },
  ],
  "digital-detox-club": [
    {
      by: "creator",
      cat: 0,
      pinned: true,
      text: "This week's challenge: the phone stays out of the bedroom. Buy a cheap alarm clock. Report back on Sunday.",
    },
    {
      cat: 0,
      tone: "win",
      text: "Did the phone-free Saturday. Read half a book and went for a long walk. Checked my phone at 9pm: nothing important had happened.",
    },
    {
      cat: 1,
      tone: "share",
      text: "Tip: grayscale mode. My screen time dropped by an hour a day and I didn't even notice at first.",
    },
    {
      cat: 1,
      tone: "question",
      text: "How do you deal with group chats? That's where most of my screen time goes.",
    },
    { cat: 0, tone: "win", text: "Screen time this week: 2h 10m a day, down from 5h 40m a month ago." },
  ],
};
