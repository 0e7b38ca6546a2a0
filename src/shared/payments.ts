import { z } from "zod";
import { currencyDecimals, formatMoney } from "./money";

/*
 * Payments (issue 18): what an owner sells, what a member holds, and the rules both sides read.
 * Amounts are integers in the currency's minor unit (cents; yen for JPY), as Stripe counts them.
 * Access is read only from entitlements (server: features/payments); a provider only reports.
 */

/** The payment providers: `simulated` (default: demo, development, CI) and `stripe`. */
export const PAYMENT_PROVIDERS = ["simulated", "stripe"] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** At most this many tiers per community (e.g. Free, Standard, VIP). */
export const MAX_TIERS = 3;
export const TIER_NAME_MAX = 40;
export const TIER_DESCRIPTION_MAX = 200;
export const TRIAL_DAYS_MAX = 365;
/** A failed renewal keeps paid access this many days by default (a community setting). */
export const DEFAULT_GRACE_DAYS = 7;
export const GRACE_DAYS_MAX = 60;
/** The instance's fee on Connect payments is a percentage between these. */
export const PLATFORM_FEE_MAX = 50;

/** How often a price charges. `once` is a one-time purchase (a course). */
export const BILLING_INTERVALS = ["month", "year", "once"] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];
export const RECURRING_INTERVALS = ["month", "year"] as const;
export type RecurringInterval = (typeof RECURRING_INTERVALS)[number];

/** What a price sells: a community tier, a course, or the creator plan of the sign-up funnel. */
export const PRODUCT_KINDS = ["tier", "course", "creator_plan"] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];

/**
 * An entitlement's life: `trialing` and `active` open the content; `past_due` keeps it open until
 * the grace period ends; `canceled` keeps it open until the paid period ends; `expired` and
 * `refunded` close it. `entitlementOpen` is the one rule (the server's SQL is generated from it).
 */
export const ENTITLEMENT_STATUSES = ["trialing", "active", "past_due", "canceled", "expired", "refunded"] as const;
export type EntitlementStatus = (typeof ENTITLEMENT_STATUSES)[number];
export const ENTITLEMENT_KINDS = ["community", "course", "creator_plan"] as const;
export type EntitlementKind = (typeof ENTITLEMENT_KINDS)[number];

export type EntitlementTimes = {
  status: EntitlementStatus;
  current_period_end: Date | string | null;
  grace_ends_at: Date | string | null;
};

const later = (when: Date | string | null, now: number) => when !== null && new Date(when).getTime() > now;

/** Whether an entitlement opens what it sells at `now`. */
export function entitlementOpen(e: EntitlementTimes, now = Date.now()): boolean {
  switch (e.status) {
    case "trialing":
    case "active":
      return true;
    case "past_due":
      return later(e.grace_ends_at, now);
    case "canceled":
      return later(e.current_period_end, now);
    default:
      return false;
  }
}

/** How a course is opened: to every member, to chosen tiers, or sold once ('Buy this course'). */
/** Who may watch a course: every member, chosen tiers, buyers, or members from a level on (issue 20). */
export const COURSE_ACCESS_MODES = ["members", "tiers", "sold", "level"] as const;
export type CourseAccessMode = (typeof COURSE_ACCESS_MODES)[number];

/** The currencies Stripe charges in (its presentment currencies), lower case as Stripe writes them. */
export const CURRENCIES = [
  "usd",
  "aed",
  "afn",
  "all",
  "amd",
  "ang",
  "aoa",
  "ars",
  "aud",
  "awg",
  "azn",
  "bam",
  "bbd",
  "bdt",
  "bgn",
  "bif",
  "bmd",
  "bnd",
  "bob",
  "brl",
  "bsd",
  "bwp",
  "byn",
  "bzd",
  "cad",
  "cdf",
  "chf",
  "clp",
  "cny",
  "cop",
  "crc",
  "cve",
  "czk",
  "djf",
  "dkk",
  "dop",
  "dzd",
  "egp",
  "etb",
  "eur",
  "fjd",
  "fkp",
  "gbp",
  "gel",
  "gip",
  "gmd",
  "gnf",
  "gtq",
  "gyd",
  "hkd",
  "hnl",
  "htg",
  "huf",
  "idr",
  "ils",
  "inr",
  "isk",
  "jmd",
  "jpy",
  "kes",
  "kgs",
  "khr",
  "kmf",
  "krw",
  "kyd",
  "kzt",
  "lak",
  "lbp",
  "lkr",
  "lrd",
  "lsl",
  "mad",
  "mdl",
  "mga",
  "mkd",
  "mmk",
  "mnt",
  "mop",
  "mur",
  "mvr",
  "mwk",
  "mxn",
  "myr",
  "mzn",
  "nad",
  "ngn",
  "nio",
  "nok",
  "npr",
  "nzd",
  "pab",
  "pen",
  "pgk",
  "php",
  "pkr",
  "pln",
  "pyg",
  "qar",
  "ron",
  "rsd",
  "rub",
  "rwf",
  "sar",
  "sbd",
  "scr",
  "sek",
  "sgd",
  "shp",
  "sle",
  "sos",
  "srd",
  "szl",
  "thb",
  "tjs",
  "top",
  "try",
  "ttd",
  "twd",
  "tzs",
  "uah",
  "ugx",
  "uyu",
  "uzs",
  "vnd",
  "vuv",
  "wst",
  "xaf",
  "xcd",
  "xof",
  "xpf",
  "yer",
  "zar",
  "zmw",
] as const;
export type Currency = (typeof CURRENCIES)[number];

export { currencyDecimals, formatMoney, formatPrice, fromMinor, toMinor } from "./money";
export const DEFAULT_CURRENCY: Currency = "usd";

/** Stripe's smallest charge is about half a dollar; this many minor units (100 for zero-decimal ones). */
export const minAmount = (currency: string) => (currencyDecimals(currency) === 0 ? 100 : 50);
/** The largest price Hearth takes, in minor units (Stripe's limit is 99,999,999). */
export const MAX_AMOUNT = 99_999_999;

/** A price in minor units of the given currency, within Stripe's limits. */
export const amountSchema = z
  .number({ error: "Please enter a price" })
  .int("Prices are whole minor units (cents)")
  .min(0, "A price cannot be negative")
  .max(MAX_AMOUNT, "That price is too high");

export const currencySchema = z.enum(CURRENCIES, { error: "Choose a currency Stripe supports" });

/** One tier as the owner edits it; prices in minor units. A free tier has no prices. */
export const tierInputSchema = z
  .object({
    /** Absent for a new tier. */
    id: z.uuid().optional(),
    name: z.string().trim().min(1, "Please name the tier").max(TIER_NAME_MAX, `At most ${TIER_NAME_MAX} characters`),
    description: z.string().trim().max(TIER_DESCRIPTION_MAX, `At most ${TIER_DESCRIPTION_MAX} characters`).default(""),
    free: z.boolean(),
    monthly_amount: amountSchema.nullable(),
    annual_amount: amountSchema.nullable(),
    trial_days: z.number().int().min(0).max(TRIAL_DAYS_MAX, `A trial lasts at most ${TRIAL_DAYS_MAX} days`),
  })
  .strict();
export type TierInput = z.infer<typeof tierInputSchema>;

/** The Pricing tab's whole state: the currency, the grace period and up to 3 tiers in order. */
export const pricingInputSchema = z
  .object({
    currency: currencySchema,
    grace_days: z.number().int().min(0).max(GRACE_DAYS_MAX),
    tiers: z.array(tierInputSchema).max(MAX_TIERS, `At most ${MAX_TIERS} tiers`),
  })
  .strict()
  .superRefine((v, ctx) => {
    v.tiers.forEach((t, i) => {
      if (t.free) return;
      const min = minAmount(v.currency);
      if (t.monthly_amount === null)
        ctx.addIssue({
          code: "custom",
          path: ["tiers", i, "monthly_amount"],
          message: "A paid tier needs a monthly price",
        });
      for (const key of ["monthly_amount", "annual_amount"] as const) {
        const amount = t[key];
        if (amount !== null && amount < min)
          ctx.addIssue({
            code: "custom",
            path: ["tiers", i, key],
            message: `The smallest price is ${formatMoney(min, v.currency, "en")}`,
          });
      }
    });
    const names = v.tiers.map((t) => t.name.toLowerCase());
    if (new Set(names).size !== names.length)
      ctx.addIssue({ code: "custom", path: ["tiers"], message: "Each tier needs its own name" });
  });
export type PricingInput = z.infer<typeof pricingInputSchema>;

/**
 * Starting a checkout names what to buy, never an amount: the server charges its own stored price.
 * A community tier with an interval, or a course (one-time).
 */
export const checkoutInputSchema = z.discriminatedUnion("product", [
  z
    .object({
      product: z.literal("tier"),
      tier_id: z.uuid(),
      interval: z.enum(RECURRING_INTERVALS),
      /** A private community's invite: lets someone who is not a member yet buy in. */
      invite_code: z.string().min(1).max(100).optional(),
    })
    .strict(),
  z.object({ product: z.literal("course"), course_id: z.uuid() }).strict(),
]);
export type CheckoutInput = z.infer<typeof checkoutInputSchema>;

/** A checkout's progress as the waiting page reads it. */
export const CHECKOUT_STATUSES = ["open", "complete", "expired", "failed"] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** Stripe Connect: the community's payout account as the owner sees it. */
export const CONNECT_STATUSES = ["not_connected", "onboarding", "active", "restricted"] as const;
export type ConnectStatus = (typeof CONNECT_STATUSES)[number];

/** Texts shown to people. */
export const PAYMENT_MESSAGES = {
  checkoutNeeded: "This community is paid: choose a plan to join.",
  priceUnavailable: "That price is not on sale",
  tierNotFound: "Tier not found",
  alreadySubscribed: "You already have a membership here",
  alreadyPurchased: "You already own this course",
  notSold: "This course is not for sale",
  waiting: "Confirming your payment…",
  confirmed: "Payment confirmed. Welcome!",
  checkoutFailed: "The payment did not go through. Nothing was charged.",
  cancelScheduled: "Your membership is cancelled. You keep access until the end of the paid period.",
  pastDue: "Your last payment failed. Update your card to keep your access.",
  badSignature: "Invalid webhook signature",
  stripeOff: "Stripe is not configured on this server",
  connectNeeded: "Connect a Stripe account before selling",
  subscriptionNotFound: "Subscription not found",
  severalTiers: "This community has several tiers: change its prices in Settings → Pricing",
  tierIdsNeeded: "Choose at least one tier that opens this course",
  coursePriceNeeded: "A course sold separately needs a price",
} as const;
