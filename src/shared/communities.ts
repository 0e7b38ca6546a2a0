import { LIMITS } from "./limits";

/** Directory categories, in chip order (SPEC §2). The id is what /category/:categoryId carries. */
export const COMMUNITY_CATEGORIES = [
  { id: "arts", label: "Arts" },
  { id: "business", label: "Business" },
  { id: "finance", label: "Finance" },
  { id: "health", label: "Health" },
  { id: "marketing", label: "Marketing" },
  { id: "technology", label: "Technology" },
  { id: "wellness", label: "Wellness" },
] as const;
export type CommunityCategory = (typeof COMMUNITY_CATEGORIES)[number]["id"];
export const CATEGORY_IDS = COMMUNITY_CATEGORIES.map((c) => c.id) as [CommunityCategory, ...CommunityCategory[]];
export const categoryLabel = (id: string | null | undefined) =>
  COMMUNITY_CATEGORIES.find((c) => c.id === id)?.label ?? null;

/** Slug (SPEC §5): lowercase, runs of anything but a-z0-9 become one hyphen, edge hyphens trimmed. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The slug to try for the n-th collision: name, name-1, name-2, … */
export const slugCandidate = (base: string, attempt: number) => (attempt === 0 ? base : `${base}-${attempt}`);

/** Onboarding tasks (SPEC §3), in checklist order. */
export const ONBOARDING_TASKS = [
  { id: "invite", label: "Invite 3 people" },
  { id: "description", label: "Add group description" },
  { id: "customization", label: "Add icon & cover image" },
  { id: "first_post", label: "Write your first post" },
] as const;
export type OnboardingTask = (typeof ONBOARDING_TASKS)[number]["id"];
export const ONBOARDING_INVITES_NEEDED = 3;

export const COMMUNITY_LIMITS = {
  rulesMax: 10,
  ruleMax: 200,
  taglineMax: 80,
  categoriesMax: 20,
  categoryNameMax: 40,
  priceMax: 10_000,
  directoryPageSize: 24,
  directoryPageMax: 60,
  searchMax: 100,
  /** Members active within this window count as online. */
  onlineWindowMinutes: 5,
  iconMaxBytes: LIMITS.iconMaxBytes,
  coverMaxBytes: LIMITS.coverMaxBytes,
  coverRecommended: "1084x576",
} as const;
