/**
 * The search demo (issue 21): a months-old question in Film Photography Club whose answer is only
 * in one of its comments. Browser journeys search for the word and check where it lands.
 */
export const SEARCH_DEMO = {
  community: "film-photography-club",
  /** The word only the answering comment holds. */
  word: "Pyrocat",
  daysAgo: 140,
  post: "Which developer for high-contrast scenes? Snow, bright sky, deep shadows: my HP5 negatives keep blocking up in the highlights.",
  comments: [
    "Same problem last winter. Shooting at box speed and pulling one stop helped a little.",
    "Try Pyrocat-HD as a semi-stand: the staining developer tames the highlights and keeps the shadows. Two-bath also works.",
    "Thanks both, ordering the kit and will report back with a snowy roll.",
  ],
} as const;
