import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { buildCalendar, eventPageUrl, icsFileName, occurrenceUid, sequenceOf, type IcsOccurrence } from "./ics";

const ORIGIN = "https://hearth.example";

const occurrence = (over: Partial<IcsOccurrence> = {}): IcsOccurrence => ({
  id: "5b0c7d52-0d6e-4f3a-9a51-2f1f7d0c1a01",
  community_id: "0f8e4c1a-7b1d-4d2e-8c3b-9a4f5e6d7c02",
  community_name: "Pottery Club",
  title: "Weekly call",
  description: "Bring a mug; we glaze, then talk",
  starts_at: new Date("2026-03-08T14:00:00Z"),
  ends_at: new Date("2026-03-08T15:30:00Z"),
  location_kind: "online",
  place: null,
  status: "scheduled",
  updated_at: new Date("2026-02-01T10:20:30Z"),
  ...over,
});

/** The VEVENTs of a calendar, read by an independent parser (ical.js). */
function parse(text: string) {
  const cal = new ICAL.Component(ICAL.parse(text));
  return { cal, events: cal.getAllSubcomponents("vevent") };
}

describe("buildCalendar", () => {
  it("writes one VEVENT per occurrence that an independent parser reads back as the rows", () => {
    const a = occurrence();
    const b = occurrence({
      id: "5b0c7d52-0d6e-4f3a-9a51-2f1f7d0c1a02",
      title: "Glaze workshop",
      description: "",
      location_kind: "place",
      place: "Studio 4, 12 Kiln Street",
      starts_at: new Date("2026-11-01T05:30:00Z"),
      ends_at: new Date("2026-11-01T07:30:00Z"),
      status: "cancelled",
      updated_at: new Date("2026-10-30T08:00:00Z"),
    });
    const { events } = parse(buildCalendar([a, b], { origin: ORIGIN }));
    expect(events).toHaveLength(2);
    for (const [vevent, row] of [
      [events[0], a],
      [events[1], b],
    ] as const) {
      const e = new ICAL.Event(vevent);
      expect(e.uid).toBe(occurrenceUid(row.id));
      expect(e.uid).toBe(`${row.id}@hearth`);
      expect(e.summary).toBe(row.title);
      expect(e.startDate.toJSDate().toISOString()).toBe(row.starts_at.toISOString());
      expect(e.endDate.toJSDate().toISOString()).toBe(row.ends_at.toISOString());
      expect(e.startDate.zone?.tzid).toBe("UTC");
      expect(e.sequence).toBe(sequenceOf(row.updated_at));
      const lastModified = vevent.getFirstPropertyValue("last-modified") as ICAL.Time;
      expect(lastModified.toJSDate().toISOString()).toBe(row.updated_at.toISOString());
      const page = eventPageUrl(ORIGIN, row);
      expect(page).toBe(`${ORIGIN}/community/${row.community_id}?tab=calendar&event=${row.id}`);
      expect(vevent.getFirstPropertyValue("url")).toBe(page);
      expect(e.description).toContain(page);
      if (row.description) expect(e.description.startsWith(row.description)).toBe(true);
    }
    expect(events[0].getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(events[1].getFirstPropertyValue("status")).toBe("CANCELLED");
    // An online event's location is its page (the meeting link is never written into a file); a place is the place.
    expect(new ICAL.Event(events[0]).location).toBe(eventPageUrl(ORIGIN, a));
    expect(new ICAL.Event(events[1]).location).toBe("Studio 4, 12 Kiln Street");
  });

  it("a later edit gives a higher SEQUENCE", () => {
    expect(sequenceOf(new Date("2026-02-01T10:20:31Z"))).toBeGreaterThan(sequenceOf(new Date("2026-02-01T10:20:30Z")));
    expect(sequenceOf(new Date("2060-01-01T00:00:00Z"))).toBeLessThan(2 ** 31);
  });

  it("a title or description with CRLF, commas and semicolons stays text: one VEVENT, no injected property", () => {
    const evil = "Evil\r\nATTENDEE:mailto:x@y.z;X=1,2";
    const text = buildCalendar(
      [occurrence({ title: evil, description: "Line\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:Injected", place: evil })],
      { origin: ORIGIN },
    );
    const { events } = parse(text);
    expect(events).toHaveLength(1);
    expect(events[0].getAllProperties("attendee")).toHaveLength(0);
    expect(events[0].getAllProperties("summary")).toHaveLength(1);
    // The parser gets the title back exactly (line breaks come back as \n, the escaped form of CRLF).
    expect(new ICAL.Event(events[0]).summary.replace(/\n/g, "\r\n").replace(/\r\r/g, "\r")).toBe(evil);
    expect(new ICAL.Event(events[0]).description).toContain("Line\nEND:VEVENT\nBEGIN:VEVENT\nSUMMARY:Injected");
    expect(text).not.toMatch(/^ATTENDEE/m);
    expect(text.match(/^BEGIN:VEVENT/gm)).toHaveLength(1);
  });

  it("a 10,000-character title is folded, read back whole, in one VEVENT", () => {
    const long = "a;b,c\\".repeat(2000);
    expect(long).toHaveLength(12_000);
    const title = long.slice(0, 10_000);
    const text = buildCalendar([occurrence({ title })], { origin: ORIGIN });
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const { events } = parse(text);
    expect(events).toHaveLength(1);
    expect(new ICAL.Event(events[0]).summary).toBe(title);
    expect(events[0].getAllProperties("attendee")).toHaveLength(0);
  });

  it("a feed names itself and asks to be fetched again hourly", () => {
    const { cal } = parse(buildCalendar([occurrence()], { origin: ORIGIN, feed: true }));
    expect(cal.getFirstPropertyValue("x-wr-calname")).toBe("Hearth");
    expect(String(cal.getFirstPropertyValue("x-published-ttl"))).toBe("PT1H");
    expect(String(cal.getFirstPropertyValue("refresh-interval"))).toBe("PT1H");
  });
});

describe("icsFileName", () => {
  it("keeps letters and digits, never a path, a quote or a line break", () => {
    expect(icsFileName("Weekly call")).toBe("weekly-call.ics");
    expect(icsFileName('../../etc/"passwd"\r\nX: y')).toBe("etcpasswd-x-y.ics");
    expect(icsFileName(";;;")).toBe("event.ics");
    expect(icsFileName("Café crème — live!")).toBe("cafe-creme-live.ics");
    expect(icsFileName("x".repeat(500)).length).toBeLessThanOrEqual(64);
  });
});
