import { describe, expect, it } from "vitest";
import { countdownText, dayKey, gridRange, monthGrid, monthlyLabels, whenText, zoneOptions } from "./format";

describe("calendar times on the web", () => {
  it("shows an occurrence in the viewer's zone and names the event's zone when it differs", () => {
    const e = { starts_at: "2026-03-10T15:00:00Z", ends_at: "2026-03-10T16:00:00Z", time_zone: "America/New_York" };
    const inLondon = whenText(e, "Europe/London");
    expect(inLondon.date).toBe("Tuesday, March 10, 2026");
    expect(inLondon.time).toBe("3:00 PM – 4:00 PM GMT");
    expect(inLondon.eventZone).toBe("11:00 AM EDT in New York");
    expect(whenText(e, "America/New_York").eventZone).toBeNull();
  });

  it("keeps an end at midnight on the day it belongs to, and dates a late start by the viewer's day", () => {
    const e = { starts_at: "2026-11-27T23:00:00Z", ends_at: "2026-11-28T00:00:00Z", time_zone: "UTC" };
    expect(whenText(e, "UTC").time).toBe("11:00 PM – 12:00 AM UTC");
    expect(dayKey(e.starts_at, "Asia/Tokyo")).toBe("2026-11-28");
    expect(dayKey(e.starts_at, "America/Los_Angeles")).toBe("2026-11-27");
  });

  it("counts down in days and hours, then hours and minutes, then mm:ss in the last hour", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(countdownText(now + (2 * 24 + 4) * 3600_000 + 59_000, now)).toBe("Starts in 2d 4h");
    expect(countdownText(now + 3 * 3600_000 + 12 * 60_000, now)).toBe("Starts in 3h 12m");
    expect(countdownText(now + 12 * 60_000 + 34_000, now)).toBe("Starts in 12:34");
  });

  it("lays a month out in six weeks from Monday, asking the server for 44 days at most", () => {
    const days = monthGrid(2026, 10); // November 2026 starts on a Sunday
    expect(days).toHaveLength(42);
    expect(days[0]).toEqual({ key: "2026-10-26", day: 26, inMonth: false });
    expect(days[6]).toEqual({ key: "2026-11-01", day: 1, inMonth: true });
    const { from, to } = gridRange(days);
    expect(from).toBe("2026-10-25T00:00:00.000Z");
    expect((Date.parse(to) - Date.parse(from)) / 86_400_000).toBe(44);
  });

  it("names the monthly choices from the first date", () => {
    expect(monthlyLabels("2026-04-14")).toEqual({
      day_of_month: "Monthly on day 14",
      nth_weekday: "Monthly on the second Tuesday",
    });
    expect(monthlyLabels("2026-04-30").nth_weekday).toBe("Monthly on the last Thursday");
  });

  it("offers every zone with the viewer's first", () => {
    const zones = zoneOptions("Europe/London");
    expect(zones[0]).toEqual({ value: "Europe/London", label: "Europe/London" });
    expect(zones.filter((z) => z.value === "Europe/London")).toHaveLength(1);
    expect(zones.some((z) => z.value === "America/New_York")).toBe(true);
  });
});
