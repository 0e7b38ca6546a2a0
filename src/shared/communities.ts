import { z } from "zod";
import { LIMITS } from "./limits";
import { MSG } from "./messages";

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

export const communityNameSchema = z
  .string(MSG.communityNameRequired)
  .trim()
  .min(1, MSG.communityNameRequired)
  .max(LIMITS.communityNameMax, `Community name must be at most ${LIMITS.communityNameMax} characters`);

export const createCommunitySchema = z.object({ name: communityNameSchema }).strict();

const price = z
  .number()
  .min(0, "Price must be 0 or more")
  .max(COMMUNITY_LIMITS.priceMax, `Price must be at most ${COMMUNITY_LIMITS.priceMax}`)
  .refine((v) => Math.round(v * 100) === Number((v * 100).toFixed(6)), "Price can have at most 2 decimals");

/** Everything the settings dialog edits (each field optional: a tab sends only its own). */
export const updateCommunitySchema = z
  .object({
    name: communityNameSchema,
    description: z
      .string()
      .max(LIMITS.communityDescriptionMax, `Description must be at most ${LIMITS.communityDescriptionMax} characters`),
    tagline: z
      .string()
      .trim()
      .max(COMMUNITY_LIMITS.taglineMax, `Tagline must be at most ${COMMUNITY_LIMITS.taglineMax} characters`),
    category: z.enum(CATEGORY_IDS).nullable(),
    visibility: z.enum(["public", "private"]),
    type: z.enum(["free", "paid"]),
    price,
    show_classroom: z.boolean(),
    show_calendar: z.boolean(),
    show_map: z.boolean(),
    show_leaderboards: z.boolean(),
    show_about: z.boolean(),
    moderation_enabled: z.boolean(),
    invite_enabled: z.boolean(),
    rules: z
      .array(
        z
          .string()
          .trim()
          .min(1, "A rule cannot be empty")
          .max(COMMUNITY_LIMITS.ruleMax, `A rule must be at most ${COMMUNITY_LIMITS.ruleMax} characters`),
      )
      .max(COMMUNITY_LIMITS.rulesMax, `At most ${COMMUNITY_LIMITS.rulesMax} rules`),
  })
  .partial()
  .strict()
  .refine((v) => !(v.type === "paid" && v.price !== undefined && v.price <= 0), {
    message: "A paid community needs a monthly price above 0",
    path: ["price"],
  });
export type UpdateCommunityInput = z.infer<typeof updateCommunitySchema>;

export const postCategoriesSchema = z
  .object({
    categories: z
      .array(
        z
          .object({
            id: z.uuid().optional(),
            name: z
              .string()
              .trim()
              .min(1, "Please enter a category name")
              .max(
                COMMUNITY_LIMITS.categoryNameMax,
                `Category names must be at most ${COMMUNITY_LIMITS.categoryNameMax} characters`,
              ),
            emoji: z.string().trim().max(16),
          })
          .strict(),
      )
      .max(COMMUNITY_LIMITS.categoriesMax, `At most ${COMMUNITY_LIMITS.categoriesMax} categories`),
  })
  .strict();

/** Price text: "$49/month" (whole dollars without decimals) or "Free". */
export function priceText(type: string, price: number): string {
  if (type !== "paid" || price <= 0) return "Free";
  const amount = Number.isInteger(price) ? String(price) : price.toFixed(2);
  return `$${amount}/month`;
}
