// Levels and join requests in the demo, inserted by ../levels.ts.

/**
 * The points the most-liked people of a few communities reach (ranked by the likes the posts gave
 * them, demo accounts left out), highest first. The seed tops each one up with likes from other
 * members on what they wrote there; whoever already has more keeps what they have. With the
 * default thresholds (0, 5, 20, 65, 155, 515 …) these make levels 1 to 6 in Creator Growth Lab and
 * 1 to 5 in Python for Data People, where member@hearth.test stays at level 1 or 2.
 */
export const LEVEL_LADDERS: Record<string, readonly number[]> = {
  "creator-growth-lab": [540, 230, 170],
  "python-for-data-people": [172, 86, 68, 44, 31, 23, 16, 12, 9, 7, 6, 5],
  "personal-finance-101": [96, 41, 27, 22, 11, 8, 6],
  "watercolor-collective": [161, 73, 33, 24, 14, 9, 6],
  "film-photography-club": [66, 28, 21, 9, 6],
};

/** The community that takes requests to join, and the people waiting for an answer. */
export const REQUESTS_COMMUNITY = "studio-insiders";

/** One applicant's answers, in the order of the community's questions, and how long ago they asked. */
export type DemoApplication = { hoursAgo: number; answers: [string, string, string] };

export const DEMO_APPLICATIONS: readonly DemoApplication[] = [
  {
    hoursAgo: 2,
    answers: [
      "How you build a series: I can finish single pieces but never a set of six that belong together.",
      "Ceramics, mostly small bowls and cups. My shop is on the Watercolor Collective's makers thread.",
      "A friend who joined last year showed me the critique call notes.",
    ],
  },
  {
    hoursAgo: 9,
    answers: [
      "Honest critique. I've been painting alone for three years and I want people to tell me what isn't working.",
      "Gouache landscapes, posted every week or so on my profile here.",
      "Your post about pricing originals in Creator Growth Lab.",
    ],
  },
  {
    hoursAgo: 27,
    answers: [
      "I collect prints and I'd love to see the work before the drops sell out.",
      "I don't make art myself; I write about it for a small local newsletter.",
      "The newsletter swap in Newsletter Operators.",
    ],
  },
  {
    hoursAgo: 52,
    answers: [
      "Studio habits: how you plan a month of work and keep a sketchbook going.",
      "Linocut prints and the odd zine.",
      "Search, after seeing the studio mentioned in Sketchbook Sundays.",
    ],
  },
];
