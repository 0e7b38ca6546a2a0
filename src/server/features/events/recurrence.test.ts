import { describe, expect, it } from "vitest";
import { CALENDAR_MESSAGES as M, EVENT_LIMITS, type Recurrence } from "#shared/calendar";
import {
  checkRule,
  dayBefore,
  expandSeries,
  instantToWallClock,
  nextSlot,
  zonedWallClockToInstant,
  zoneOffsetMs,
} from "./recurrence";

// Pure tests of the recurrence rules: no database.

const rule = (r: Partial<Recurrence>): Recurrence => ({
  frequency: "weekly",
  interval: 1,
  weekdays: [],
  monthly_mode: "day_of_month",
  end: "never",
  until: null,
  count: null,
  ...r,
});
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const year = (y: number) => [new Date(`${y}-01-01T00:00:00Z`), new Date(`${y + 1}-01-01T00:00:00Z`)] as const;
const hours = (ms: number) => ms / 3_600_000;

describe("zonedWallClockToInstant", () => {
  it("reads ordinary times with the offset in force", () => {
    expect(zonedWallClockToInstant("2026-01-15T10:00", "America/New_York").toISOString()).toBe(
      "2026-01-15T15:00:00.000Z",
    );
    expect(zonedWallClockToInstant("2026-07-15T10:00", "America/New_York").toISOString()).toBe(
      "2026-07-15T14:00:00.000Z",
    );
    expect(zonedWallClockToInstant("2026-07-15T10:00", "Europe/London").toISOString()).toBe("2026-07-15T09:00:00.000Z");
    expect(zonedWallClockToInstant("2026-07-15T10:00", "Asia/Kolkata").toISOString()).toBe("2026-07-15T04:30:00.000Z");
  });

  it("moves a time in the spring-forward gap forward by the gap", () => {
    // 02:30 does not exist in New York on 8 March 2026: it is 03:30 EDT.
    const ny = zonedWallClockToInstant("2026-03-08T02:30", "America/New_York");
    expect(ny.toISOString()).toBe("2026-03-08T07:30:00.000Z");
    expect(instantToWallClock(ny, "America/New_York")).toBe("2026-03-08T03:30");
    // 01:30 does not exist in London on 29 March 2026: it is 02:30 BST.
    const london = zonedWallClockToInstant("2026-03-29T01:30", "Europe/London");
    expect(london.toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(instantToWallClock(london, "Europe/London")).toBe("2026-03-29T02:30");
  });

  it("takes the earlier instant for a time in the fall-back overlap", () => {
    // 01:30 happens twice in New York on 1 November 2026: 05:30Z (EDT) and 06:30Z (EST).
    expect(zonedWallClockToInstant("2026-11-01T01:30", "America/New_York").toISOString()).toBe(
      "2026-11-01T05:30:00.000Z",
    );
    // 01:30 happens twice in London on 25 October 2026: 00:30Z (BST) and 01:30Z (GMT).
    expect(zonedWallClockToInstant("2026-10-25T01:30", "Europe/London").toISOString()).toBe("2026-10-25T00:30:00.000Z");
  });

  it("round-trips every hour of a year in several zones", () => {
    for (const zone of ["America/New_York", "Europe/London", "Australia/Sydney", "UTC"]) {
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 3_600_000) {
        const local = instantToWallClock(t, zone);
        const back = zonedWallClockToInstant(local, zone).getTime();
        // Exact, except the second pass through an overlap, which reads as the first.
        if (back !== t) expect(back, `${zone} ${local}`).toBe(t - 3_600_000);
      }
    }
  });
});

describe("expandSeries across daylight-saving changes", () => {
  it("keeps a weekly 10:00 America/New_York event at 10:00 local through March and November", () => {
    const series = {
      startsLocal: "2026-01-05T10:00",
      timeZone: "America/New_York",
      recurrence: rule({ weekdays: ["MO"] }),
    };
    const all = expandSeries(series, ...year(2026));
    expect(all).toHaveLength(52);
    for (const d of all) expect(instantToWallClock(d, "America/New_York").slice(11)).toBe("10:00");
    const march = iso(expandSeries(series, new Date("2026-03-01Z"), new Date("2026-03-17Z")));
    // 8 March: clocks go forward. The UTC offset moves from -5 to -4.
    expect(march).toEqual(["2026-03-02T15:00:00.000Z", "2026-03-09T14:00:00.000Z", "2026-03-16T14:00:00.000Z"]);
    expect(hours(zoneOffsetMs(Date.parse(march[0]), "America/New_York"))).toBe(-5);
    expect(hours(zoneOffsetMs(Date.parse(march[1]), "America/New_York"))).toBe(-4);
    const november = iso(expandSeries(series, new Date("2026-10-25Z"), new Date("2026-11-10Z")));
    // 1 November: clocks go back. -4 to -5.
    expect(november).toEqual(["2026-10-26T14:00:00.000Z", "2026-11-02T15:00:00.000Z", "2026-11-09T15:00:00.000Z"]);
  });

  it("keeps a weekly Sunday 10:00 Europe/London event at 10:00 local through March and October", () => {
    const series = {
      startsLocal: "2026-01-04T10:00",
      timeZone: "Europe/London",
      recurrence: rule({ weekdays: ["SU"] }),
    };
    for (const d of expandSeries(series, ...year(2026)))
      expect(instantToWallClock(d, "Europe/London").slice(11)).toBe("10:00");
    expect(iso(expandSeries(series, new Date("2026-03-20Z"), new Date("2026-04-01Z")))).toEqual([
      "2026-03-22T10:00:00.000Z",
      "2026-03-29T09:00:00.000Z",
    ]);
    expect(iso(expandSeries(series, new Date("2026-10-15Z"), new Date("2026-10-27Z")))).toEqual([
      "2026-10-18T09:00:00.000Z",
      "2026-10-25T10:00:00.000Z",
    ]);
  });

  it("a daily 02:30 New York event is at 03:30 on the day 02:30 does not exist, 02:30 otherwise", () => {
    const series = {
      startsLocal: "2026-03-06T02:30",
      timeZone: "America/New_York",
      recurrence: rule({ frequency: "daily" }),
    };
    const local = expandSeries(series, new Date("2026-03-06Z"), new Date("2026-03-11Z")).map((d) =>
      instantToWallClock(d, "America/New_York"),
    );
    expect(local).toEqual([
      "2026-03-06T02:30",
      "2026-03-07T02:30",
      "2026-03-08T03:30",
      "2026-03-09T02:30",
      "2026-03-10T02:30",
    ]);
  });
});

describe("monthly rules", () => {
  it("the nth weekday runs across a year end", () => {
    // 10 November 2026 is the 2nd Tuesday.
    const series = {
      startsLocal: "2026-11-10T18:00",
      timeZone: "Europe/London",
      recurrence: rule({ frequency: "monthly", monthly_mode: "nth_weekday" }),
    };
    const dates = expandSeries(series, new Date("2026-11-01Z"), new Date("2027-04-01Z")).map((d) =>
      instantToWallClock(d, "Europe/London"),
    );
    expect(dates).toEqual([
      "2026-11-10T18:00",
      "2026-12-08T18:00",
      "2027-01-12T18:00",
      "2027-02-09T18:00",
      "2027-03-09T18:00",
    ]);
  });

  it("a start in the fifth week repeats on the last such weekday", () => {
    // 29 December 2026 is the 5th (and last) Tuesday.
    const series = {
      startsLocal: "2026-12-29T09:00",
      timeZone: "UTC",
      recurrence: rule({ frequency: "monthly", monthly_mode: "nth_weekday" }),
    };
    const dates = iso(expandSeries(series, new Date("2026-12-01Z"), new Date("2027-04-01Z"))).map((d) =>
      d.slice(0, 10),
    );
    expect(dates).toEqual(["2026-12-29", "2027-01-26", "2027-02-23", "2027-03-30"]);
  });

  it("day_of_month 31 skips the months without a 31st", () => {
    const series = { startsLocal: "2027-01-31T12:00", timeZone: "UTC", recurrence: rule({ frequency: "monthly" }) };
    const dates = iso(expandSeries(series, ...year(2027))).map((d) => d.slice(0, 10));
    expect(dates).toEqual([
      "2027-01-31",
      "2027-03-31",
      "2027-05-31",
      "2027-07-31",
      "2027-08-31",
      "2027-10-31",
      "2027-12-31",
    ]);
  });

  it("every 2 months on the 15th", () => {
    const series = {
      startsLocal: "2027-01-15T12:00",
      timeZone: "UTC",
      recurrence: rule({ frequency: "monthly", interval: 2 }),
    };
    expect(iso(expandSeries(series, ...year(2027))).map((d) => d.slice(5, 10))).toEqual([
      "01-15",
      "03-15",
      "05-15",
      "07-15",
      "09-15",
      "11-15",
    ]);
  });
});

describe("ends", () => {
  it("after N times", () => {
    const series = {
      startsLocal: "2026-06-01T10:00",
      timeZone: "America/New_York",
      recurrence: rule({ weekdays: ["MO", "WE"], end: "after", count: 3 }),
    };
    const all = expandSeries(series, new Date(0), new Date("2030-01-01Z"));
    expect(all.map((d) => instantToWallClock(d, "America/New_York"))).toEqual([
      "2026-06-01T10:00",
      "2026-06-03T10:00",
      "2026-06-08T10:00",
    ]);
    expect(nextSlot(series, new Date("2026-06-09Z"))).toBeNull();
  });

  it("on a date, inclusive, in the event's zone", () => {
    // 23:30 in New York on the last day is already the next day in UTC: still included.
    const series = {
      startsLocal: "2026-06-01T23:30",
      timeZone: "America/New_York",
      recurrence: rule({ frequency: "daily", end: "on_date", until: "2026-06-03" }),
    };
    const all = expandSeries(series, new Date(0), new Date("2030-01-01Z"));
    expect(all.map((d) => instantToWallClock(d, "America/New_York"))).toEqual([
      "2026-06-01T23:30",
      "2026-06-02T23:30",
      "2026-06-03T23:30",
    ]);
    expect(all[2].toISOString()).toBe("2026-06-04T03:30:00.000Z");
  });

  it("a one-off event has its start as its only slot", () => {
    const series = { startsLocal: "2026-06-01T10:00", timeZone: "Europe/London", recurrence: null };
    expect(iso(expandSeries(series, new Date(0), new Date("2030-01-01Z")))).toEqual(["2026-06-01T09:00:00.000Z"]);
    expect(expandSeries(series, new Date("2026-06-02Z"), new Date("2030-01-01Z"))).toEqual([]);
  });

  it("dayBefore crosses months and years", () => {
    expect(dayBefore("2027-01-01")).toBe("2026-12-31");
    expect(dayBefore("2028-03-01")).toBe("2028-02-29");
  });
});

describe("checkRule", () => {
  const field = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      const e = err as { message: string; details?: { field?: string }; status: number };
      return { message: e.message, field: e.details?.field, status: e.status };
    }
    return null;
  };

  it("refuses an end date before the start", () => {
    const series = {
      startsLocal: "2026-06-10T10:00",
      timeZone: "UTC",
      recurrence: rule({ frequency: "daily", end: "on_date", until: "2026-06-09" }),
    };
    expect(field(() => checkRule(series))).toEqual({
      message: M.untilBeforeStart,
      field: "recurrence.until",
      status: 400,
    });
    expect(field(() => checkRule({ ...series, recurrence: { ...series.recurrence, until: "2026-06-10" } }))).toBeNull();
  });

  it("refuses a rule with more occurrences in its first year than the limit", () => {
    const daily = { startsLocal: "2026-06-10T10:00", timeZone: "UTC", recurrence: rule({ frequency: "daily" }) };
    // The contract's limit is 1,000; a daily rule makes 365 a year, so it passes...
    expect(EVENT_LIMITS.occurrencesPerYearMax).toBe(1000);
    expect(field(() => checkRule(daily))).toBeNull();
    // ...and the same check refuses it under a lower limit, with the message and field of the contract.
    expect(field(() => checkRule(daily, 364))).toEqual({
      message: M.tooManyOccurrences,
      field: "recurrence",
      status: 400,
    });
    expect(field(() => checkRule(daily, 365))).toBeNull();
    // Weekdays only: 52 weeks and a day (the start's Wednesday) make 261 in the first year.
    const weekdays = {
      ...daily,
      recurrence: rule({ weekdays: ["MO", "TU", "WE", "TH", "FR"] }),
    };
    expect(field(() => checkRule(weekdays, 261))).toBeNull();
    expect(field(() => checkRule(weekdays, 260))).not.toBeNull();
  });

  it("refuses a rule that never happens", () => {
    // Weekly on Mondays from a Wednesday, ending that Friday: no Monday in between.
    const series = {
      startsLocal: "2026-06-10T10:00",
      timeZone: "UTC",
      recurrence: rule({ weekdays: ["MO"], end: "on_date", until: "2026-06-12" }),
    };
    expect(field(() => checkRule(series))?.field).toBe("recurrence.until");
  });
});
