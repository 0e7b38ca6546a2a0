import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import {
  BILLING_INTERVALS,
  CHECKOUT_STATUSES,
  ENTITLEMENT_KINDS,
  ENTITLEMENT_STATUSES,
  PAYMENT_PROVIDERS,
  PRODUCT_KINDS,
} from "#shared/payments";
import { user } from "./auth";
import { communities } from "./communities";
import { courses } from "./courses";
import { createdAt, textRef, timestamps, ts, uuidPk, uuidRef } from "./columns";

// Payments (issue 18, docs/payments.md). Amounts are integers in the currency's minor unit.

/** A community's tiers (at most 3), in order. A tier's prices are rows of `prices`. */
export const communityTiers = pgTable(
  "community_tiers",
  {
    id: uuidPk(),
    communityId: uuidRef("community_id", () => communities.id),
    position: smallint("position").notNull(),
    name: varchar("name", { length: 40 }).notNull(),
    description: varchar("description", { length: 200 }).notNull().default(""),
    isFree: boolean("is_free").notNull().default(false),
    trialDays: smallint("trial_days").notNull().default(0),
    /** A removed tier stays for the entitlements that name it; it is no longer sold. */
    archivedAt: ts("archived_at"),
    ...timestamps(),
  },
  (t) => [index("community_tiers_community_idx").on(t.communityId, t.position)],
);

/**
 * What can be bought, at what amount. A price never changes: a new amount is a new row and the old
 * one is deactivated, so subscribers keep the price they signed up at.
 */
export const prices = pgTable(
  "prices",
  {
    id: uuidPk(),
    product: text("product", { enum: PRODUCT_KINDS }).notNull(),
    communityId: uuid("community_id").references(() => communities.id, { onDelete: "cascade" }),
    tierId: uuid("tier_id").references(() => communityTiers.id, { onDelete: "cascade" }),
    courseId: uuid("course_id").references(() => courses.id, { onDelete: "cascade" }),
    /** The creator plan's id (monthly, annual) for product = creator_plan. */
    plan: text("plan"),
    interval: text("interval", { enum: BILLING_INTERVALS }).notNull(),
    currency: varchar("currency", { length: 3 }).notNull(),
    amount: integer("amount").notNull(),
    trialDays: smallint("trial_days").notNull().default(0),
    active: boolean("active").notNull().default(true),
    /** The provider's price (Stripe price id), made the first time someone checks out. */
    providerPriceId: text("provider_price_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("prices_tier_idx")
      .on(t.tierId, t.interval)
      .where(sql`${t.active}`),
    index("prices_course_idx")
      .on(t.courseId)
      .where(sql`${t.active}`),
    uniqueIndex("prices_provider_price_key").on(t.providerPriceId),
  ],
);

/**
 * What a person holds: a community membership (a tier), a course, or the creator plan. The one
 * source of paid access; the provider's objects are mirrored here by the webhook processor.
 */
export const entitlements = pgTable(
  "entitlements",
  {
    id: uuidPk(),
    userId: textRef("user_id", () => user.id),
    kind: text("kind", { enum: ENTITLEMENT_KINDS }).notNull(),
    communityId: uuid("community_id").references(() => communities.id, { onDelete: "cascade" }),
    tierId: uuid("tier_id").references(() => communityTiers.id, { onDelete: "set null" }),
    courseId: uuid("course_id").references(() => courses.id, { onDelete: "cascade" }),
    priceId: uuid("price_id").references(() => prices.id, { onDelete: "set null" }),
    status: text("status", { enum: ENTITLEMENT_STATUSES }).notNull(),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    providerCustomerId: text("provider_customer_id"),
    providerSubscriptionId: text("provider_subscription_id"),
    /** A one-time purchase's payment (Stripe payment intent), refunded by its id. */
    providerPaymentId: text("provider_payment_id"),
    amount: integer("amount").notNull().default(0),
    currency: varchar("currency", { length: 3 }).notNull(),
    interval: text("interval", { enum: BILLING_INTERVALS }).notNull(),
    currentPeriodEnd: ts("current_period_end"),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    trialEndsAt: ts("trial_ends_at"),
    graceEndsAt: ts("grace_ends_at"),
    endedAt: ts("ended_at"),
    /** The time of the provider's state last written (Stripe: when it was re-read); a re-read that changes nothing leaves it. */
    providerUpdatedAt: ts("provider_updated_at"),
    ...timestamps(),
  },
  (t) => [
    index("entitlements_user_idx").on(t.userId, t.kind),
    index("entitlements_community_idx").on(t.communityId, t.status),
    index("entitlements_course_idx").on(t.courseId, t.userId),
    uniqueIndex("entitlements_subscription_key").on(t.provider, t.providerSubscriptionId),
    uniqueIndex("entitlements_payment_key").on(t.provider, t.providerPaymentId),
  ],
);

/** Money that moved: charges (with their receipt) and refunds, for receipts, metrics and the CSV. */
export const payments = pgTable(
  "payments",
  {
    id: uuidPk(),
    entitlementId: uuid("entitlement_id").references(() => entitlements.id, { onDelete: "set null" }),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    communityId: uuid("community_id").references(() => communities.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["charge", "refund"] }).notNull(),
    status: text("status", { enum: ["succeeded", "failed"] }).notNull(),
    amount: integer("amount").notNull(),
    currency: varchar("currency", { length: 3 }).notNull(),
    /** The instance's fee on a Connect payment, in the same minor units. */
    fee: integer("fee").notNull().default(0),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    /** The provider's invoice, charge or refund id: the same payment is recorded once. */
    providerRef: text("provider_ref").notNull(),
    receiptUrl: text("receipt_url"),
    description: text("description").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payments_provider_ref_key").on(t.provider, t.providerRef, t.kind, t.status),
    index("payments_community_idx").on(t.communityId, t.createdAt),
    index("payments_user_idx").on(t.userId, t.createdAt),
  ],
);

/** A checkout started by a member; the waiting page reads its status until the payment is confirmed. */
export const checkoutSessions = pgTable(
  "checkout_sessions",
  {
    id: uuidPk(),
    userId: textRef("user_id", () => user.id),
    priceId: uuid("price_id")
      .notNull()
      .references(() => prices.id, { onDelete: "cascade" }),
    communityId: uuid("community_id").references(() => communities.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    providerSessionId: text("provider_session_id"),
    status: text("status", { enum: CHECKOUT_STATUSES }).notNull().default("open"),
    entitlementId: uuid("entitlement_id").references(() => entitlements.id, { onDelete: "set null" }),
    /** Where the member goes once it is confirmed (a path of this site). */
    returnTo: text("return_to").notNull().default("/"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("checkout_sessions_provider_key").on(t.provider, t.providerSessionId),
    index("checkout_sessions_user_idx").on(t.userId, t.createdAt),
  ],
);

/** Provider events, stored once by their id and processed through the job queue. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: text("id").primaryKey(),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    type: text("type").notNull(),
    livemode: boolean("livemode").notNull().default(false),
    /** The id of the object the event is about (re-read from the provider before anything changes). */
    objectId: text("object_id"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    receivedAt: ts("received_at").notNull().defaultNow(),
    processedAt: ts("processed_at"),
    error: text("error"),
  },
  (t) => [
    index("payment_events_unprocessed_idx")
      .on(t.receivedAt)
      .where(sql`${t.processedAt} IS NULL`),
    /** The events still waiting on one object: applied together once it is re-read (events.ts). */
    index("payment_events_pending_object_idx")
      .on(t.objectId)
      .where(sql`${t.processedAt} IS NULL`),
  ],
);

/** Stripe Connect: the account a community's payments go to, and its status as Stripe last said. */
export const payoutAccounts = pgTable("payout_accounts", {
  communityId: uuid("community_id")
    .primaryKey()
    .references(() => communities.id, { onDelete: "cascade" }),
  provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
  providerAccountId: text("provider_account_id").notNull(),
  connectedBy: text("connected_by").references(() => user.id, { onDelete: "set null" }),
  chargesEnabled: boolean("charges_enabled").notNull().default(false),
  payoutsEnabled: boolean("payouts_enabled").notNull().default(false),
  detailsSubmitted: boolean("details_submitted").notNull().default(false),
  ...timestamps(),
});

/** The simulated provider's own objects (its "Stripe"), so it can be re-read like a real one. */
export const simulatedObjects = pgTable("simulated_objects", {
  id: text("id").primaryKey(),
  kind: text("kind").notNull(),
  data: jsonb("data").$type<Record<string, unknown>>().notNull(),
  seq: bigserial("seq", { mode: "number" }).notNull(),
  ...timestamps(),
});
