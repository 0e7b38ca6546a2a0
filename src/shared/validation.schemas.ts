import { z } from "zod";
import { LANGUAGES, LIMITS, TIMEZONES } from "./limits";
import { MSG } from "./messages";
import { safeName } from "./names";
import { USERNAME_RE, normalizeUsername } from "./validation";

export const usernameSchema = z
  .string()
  .transform(normalizeUsername)
  .pipe(z.string().regex(USERNAME_RE, MSG.usernameInvalid));

export const passwordSchema = z
  .string()
  .min(LIMITS.passwordMin, MSG.passwordTooShort)
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters long`);

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email("Please enter a valid email address"));

/** A person's display name (sign-up and profile): free text in any script, without hidden characters. */
export const displayNameSchema = safeName(z.string().trim().min(1, "Please enter your name").max(LIMITS.fullNameMax));

export const signUpSchema = z.object({
  name: displayNameSchema,
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});

const optionalUrl = z
  .string()
  .trim()
  .max(300)
  .refine(
    (v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v),
    "Please enter a valid URL starting with http:// or https://",
  );

const timezoneValues = TIMEZONES.map((t) => t.value) as [string, ...string[]];
const languageValues = LANGUAGES.map((l) => l.value) as [string, ...string[]];

export const profileUpdateSchema = z
  .object({
    username: usernameSchema,
    full_name: displayNameSchema,
    headline: z.string().max(LIMITS.headlineMax, `Headline must be at most ${LIMITS.headlineMax} characters`),
    bio: z.string().max(LIMITS.bioMax),
    location: z.string().trim().max(100),
    timezone: z.enum(timezoneValues),
    language: z.enum(languageValues),
    website_url: optionalUrl,
    twitter_url: optionalUrl,
    facebook_url: optionalUrl,
    instagram_url: optionalUrl,
    linkedin_url: optionalUrl,
    email_public: z.boolean(),
    allow_messages: z.boolean(),
    show_in_directory: z.boolean(),
  })
  .partial()
  .strict();

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** Per-community switches; an update may name only the ones that change. */
export const communityFlagsSchema = z
  .object({ posts: z.boolean(), comments: z.boolean(), announcements: z.boolean(), events: z.boolean() })
  .partial()
  .strict();

export const notificationSettingsSchema = z
  .object({
    global_enabled: z.boolean(),
    email_enabled: z.boolean(),
    in_app_enabled: z.boolean(),
    push_enabled: z.boolean(),
    community_settings: z
      .record(z.uuid(), communityFlagsSchema)
      .refine((r) => Object.keys(r).length <= 100, "At most 100 communities at once"),
  })
  .partial()
  .strict();

export type NotificationSettingsUpdate = z.infer<typeof notificationSettingsSchema>;
