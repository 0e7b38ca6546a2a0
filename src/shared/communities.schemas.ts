import { z } from "zod";
import { LIMITS } from "./limits";
import { MSG } from "./messages";
import { safeName } from "./names";
import { CATEGORY_IDS, COMMUNITY_LIMITS } from "./communities";

export const communityNameSchema = safeName(
  z
    .string(MSG.communityNameRequired)
    .trim()
    .min(1, MSG.communityNameRequired)
    .max(LIMITS.communityNameMax, `Community name must be at most ${LIMITS.communityNameMax} characters`),
);

export const createCommunitySchema = z.object({ name: communityNameSchema }).strict();

const price = z
  .number()
  .min(0, "Price must be 0 or more")
  .max(COMMUNITY_LIMITS.priceMax, `Price must be at most ${COMMUNITY_LIMITS.priceMax}`)
  .refine((v) => Math.round(v * 100) === Number((v * 100).toFixed(6)), "Price can have at most 2 decimals");

/** The community's on/off settings: the page's tabs, and whether new posts wait for approval. */
export const communitySwitches = {
  show_classroom: z.boolean(),
  show_calendar: z.boolean(),
  show_map: z.boolean(),
  show_leaderboards: z.boolean(),
  show_about: z.boolean(),
  moderation_enabled: z.boolean(),
};

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
    ...communitySwitches,
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
            name: safeName(
              z
                .string()
                .trim()
                .min(1, "Please enter a category name")
                .max(
                  COMMUNITY_LIMITS.categoryNameMax,
                  `Category names must be at most ${COMMUNITY_LIMITS.categoryNameMax} characters`,
                ),
            ),
            emoji: safeName(z.string().trim().max(16)),
          })
          .strict(),
      )
      .max(COMMUNITY_LIMITS.categoriesMax, `At most ${COMMUNITY_LIMITS.categoriesMax} categories`),
  })
  .strict();
