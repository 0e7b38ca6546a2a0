/** Business constants and limits (SPEC §9). */
export const LIMITS = {
  usernameMin: 3,
  usernameMax: 30,
  usernameCheckDelayMs: 500,
  passwordMin: 6,
  /** Hard cap before hashing, so a megabyte "password" cannot tie up argon2. */
  passwordMax: 128,
  headlineMax: 160,
  bioMax: 2000,
  fullNameMax: 80,
  avatarMaxBytes: 5 * 1024 * 1024,
  iconMaxBytes: 5 * 1024 * 1024,
  coverMaxBytes: 10 * 1024 * 1024,
  communityNameMax: 30,
  communityDescriptionMax: 150,
  feedPageSize: 50,
  notificationDropdown: 10,
  dialogResetMs: 300,
  successMessageMs: 3000,
  resetRedirectMs: 3000,
} as const;

export const TIMEZONES = [
  { value: "UTC", label: "UTC" },
  { value: "America/New_York", label: "New York" },
  { value: "America/Chicago", label: "Chicago" },
  { value: "America/Denver", label: "Denver" },
  { value: "America/Los_Angeles", label: "Los Angeles" },
  { value: "Europe/London", label: "London" },
  { value: "Europe/Paris", label: "Paris" },
  { value: "Asia/Tokyo", label: "Tokyo" },
  { value: "Australia/Sydney", label: "Sydney" },
] as const;

export const LANGUAGES = [
  { value: "en", label: "English" },
  { value: "pt", label: "Português" },
  { value: "es", label: "Español" },
  { value: "fr", label: "Français" },
  { value: "de", label: "Deutsch" },
  { value: "it", label: "Italiano" },
  { value: "ja", label: "日本語" },
  { value: "zh", label: "中文" },
] as const;

export const IMAGE_VARIANTS = {
  thumbnail: { width: 200, height: 200, quality: 80 },
  medium: { width: 800, height: 800, quality: 85 },
  large: { width: 1920, height: 1920, quality: 90 },
} as const;
