import type { BillingInterval } from "./payments";

/*
 * Money as people read it (issue 18), without zod: the first pages format prices (cards, JOIN)
 * and must not load the payment schemas. `#shared/payments` re-exports the formatting.
 */

/** Currencies without a minor unit (Stripe's zero-decimal currencies). */
const ZERO_DECIMAL = new Set([
  "bif",
  "clp",
  "djf",
  "gnf",
  "jpy",
  "kmf",
  "krw",
  "mga",
  "pyg",
  "rwf",
  "ugx",
  "vnd",
  "vuv",
  "xaf",
  "xof",
  "xpf",
]);

/** Digits after the decimal point in prices of this currency. */
export const currencyDecimals = (currency: string) => (ZERO_DECIMAL.has(currency.toLowerCase()) ? 0 : 2);

/** A price typed in the currency's units (9.99) as minor units (999). */
export function toMinor(amount: number, currency: string): number {
  return Math.round(amount * 10 ** currencyDecimals(currency));
}
/** Minor units (999) as the currency's units (9.99). */
export function fromMinor(minor: number, currency: string): number {
  return minor / 10 ** currencyDecimals(currency);
}

/** "$9.99", "€49", "¥1,000": an amount in minor units in the reader's locale. */
export function formatMoney(minor: number, currency: string, locale?: string): string {
  const decimals = currencyDecimals(currency);
  const value = fromMinor(minor, currency);
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency: currency.toUpperCase(),
    minimumFractionDigits: Number.isInteger(value) ? 0 : decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

/** "$9.99/month", "$97/year", "$49" (once). */
export function formatPrice(p: { amount: number; currency: string; interval: BillingInterval }, locale?: string) {
  const money = formatMoney(p.amount, p.currency, locale);
  return p.interval === "once" ? money : `${money}/${p.interval}`;
}

/** A community's price text in the reader's locale: "$49/month", "€15/month" (the price in currency units) or "Free". */
export function priceText(type: string, price: number, currency: string): string {
  if (type !== "paid" || price <= 0) return "Free";
  return formatPrice({ amount: toMinor(price, currency), currency, interval: "month" });
}
