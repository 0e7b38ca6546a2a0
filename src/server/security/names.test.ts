/**
 * Issue 15, items 12 and 13: names that spoof what other people see, and the sign-up name in mail.
 *
 * 12. Every name field refuses control, bidi and zero-width characters and words mixing Latin,
 *     Cyrillic and Greek letters (src/shared/names.ts, the rule the web forms use too), while names
 *     in any script, with accents or emoji, still pass. A community name that is, or only looks
 *     like, another community's name (UTS #39 confusables skeleton, kept in communities.name_key) is
 *     refused on creation and on rename, whichever way the other one was made.
 * 13. The confirmation mail, sent to any address before it is confirmed, carries no sign-up name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "#shared/messages";
import { api, createTestApp, signedInUser, type TestApp } from "#server/test/harness";
import { ok, type User } from "./world";

let t: TestApp;
let http: ReturnType<typeof api>;
let owner: User;
let communityId: string;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  owner = await signedInUser(t);
  communityId = ok(await http.post("/api/communities", { name: `Home ${unique()}` }, { cookie: owner.cookie }), 201)
    .body.id;
});
afterAll(() => t.close());

function unique() {
  return Math.random().toString(36).slice(2, 8);
}

/** One bad character of each kind, inside an otherwise ordinary name. */
const BAD: Record<string, (name: string) => string> = {
  "right-to-left override U+202E": (n) => `${n} \u202Egnp.exe`,
  "left-to-right isolate U+2066…U+2069": (n) => `\u2066${n}\u2069`,
  "first strong isolate U+2068": (n) => `${n}\u2068x`,
  "right-to-left mark U+200F": (n) => `${n}\u200F`,
  "zero-width space U+200B": (n) => `${n.slice(0, 2)}\u200B${n.slice(2)}`,
  "zero-width joiner inside a Latin word": (n) => `${n.slice(0, 2)}\u200D${n.slice(2)}`,
  "zero-width non-joiner inside a Latin word": (n) => `${n.slice(0, 2)}\u200C${n.slice(2)}`,
  "word joiner U+2060": (n) => `${n}\u2060`,
  "byte order mark U+FEFF": (n) => `${n.slice(0, 3)}\uFEFF${n.slice(3)}`,
  "control character (bell)": (n) => `${n}\u0007`,
  "line break": (n) => `${n.slice(0, 3)}\n${n.slice(3)}`,
  "Hangul filler (blank look)": (n) => `${n}\u3164`,
};

const error = (res: { body: { error?: { message?: string } } }) => res.body?.error?.message;

describe("item 12: hidden characters are refused in every name field", () => {
  it("sign-up name: 400 with the shared message, no account made", async () => {
    for (const [kind, make] of Object.entries(BAD)) {
      const id = unique();
      const email = `bidi${id}@example.test`;
      const res = await http.post("/api/auth/sign-up/email", {
        name: make("Ada Lovelace"),
        username: `ada_${id}`,
        email,
        password: "analytical",
      });
      expect(res.status, kind).toBe(400);
      expect(error(res), kind).toBe(MSG.nameHiddenCharacters);
      const rows = await t.database.pool.query(`SELECT 1 FROM "user" WHERE email = $1`, [email]);
      expect(rows.rowCount, kind).toBe(0);
    }
  });

  it("profile display name: 400 with the shared message, name unchanged", async () => {
    const user = await signedInUser(t, { name: "Grace Hopper" });
    for (const [kind, make] of Object.entries(BAD)) {
      const res = await http.patch("/api/me/profile", { full_name: make("Grace Hopper") }, { cookie: user.cookie });
      expect(res.status, kind).toBe(400);
      expect(error(res), kind).toBe(MSG.nameHiddenCharacters);
    }
    const rows = await t.database.pool.query(`SELECT full_name FROM user_profiles WHERE user_id = $1`, [user.id]);
    expect(rows.rows[0].full_name).toBe("Grace Hopper");
  });

  it("account name through Better Auth's update-user: 400, name unchanged", async () => {
    const user = await signedInUser(t, { name: "Alan Turing" });
    for (const [kind, make] of Object.entries(BAD)) {
      const res = await http.post("/api/auth/update-user", { name: make("Alan Turing") }, { cookie: user.cookie });
      expect(res.status, kind).toBe(400);
      expect(error(res), kind).toBe(MSG.nameHiddenCharacters);
    }
    const rows = await t.database.pool.query(`SELECT name FROM "user" WHERE id = $1`, [user.id]);
    expect(rows.rows[0].name).toBe("Alan Turing");
  });

  it("username (letters, digits, underscore only): 400 with the username message", async () => {
    const user = await signedInUser(t);
    for (const [kind, make] of Object.entries(BAD)) {
      const res = await http.patch("/api/me/profile", { username: make("spoofed_name") }, { cookie: user.cookie });
      expect(res.status, kind).toBe(400);
      expect(error(res), kind).toBe(MSG.usernameInvalid);
      const id = unique();
      const signUp = await http.post("/api/auth/sign-up/email", {
        name: "Ada",
        username: make(`ada_${id}`),
        email: `u${id}@example.test`,
        password: "analytical",
      });
      expect(signUp.status, kind).toBe(400);
      expect(error(signUp), kind).toBe(MSG.usernameInvalid);
    }
  });

  it("community name, on create and on rename: 400 with the shared message, nothing stored", async () => {
    for (const [kind, make] of Object.entries(BAD)) {
      const name = make(`Bidi ${unique()}`);
      const created = await http.post("/api/communities", { name }, { cookie: owner.cookie });
      expect(created.status, kind).toBe(400);
      expect(error(created), kind).toBe(MSG.nameHiddenCharacters);
      const renamed = await http.patch(`/api/communities/${communityId}`, { name }, { cookie: owner.cookie });
      expect(renamed.status, kind).toBe(400);
      expect(error(renamed), kind).toBe(MSG.nameHiddenCharacters);
    }
    const rows = await t.database.pool.query(
      `SELECT name FROM communities WHERE name ~ '[\\u0001-\\u001f\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2069\\u3164\\ufeff]'`,
    );
    expect(rows.rows).toEqual([]);
  });

  it("category names and emoji, course titles: 400 with the shared message", async () => {
    for (const [kind, make] of Object.entries(BAD)) {
      const res = await http.put(
        `/api/communities/${communityId}/categories`,
        { categories: [{ name: make("Introductions"), emoji: "" }] },
        { cookie: owner.cookie },
      );
      expect(res.status, kind).toBe(400);
      expect(error(res), kind).toBe(MSG.nameHiddenCharacters);
      const course = await http.post(
        `/api/communities/${communityId}/courses`,
        { title: make("Getting started"), description: "About it" },
        { cookie: owner.cookie },
      );
      expect(course.status, kind).toBe(400);
      expect(error(course), kind).toBe(MSG.nameHiddenCharacters);
    }
  });

  it("category emoji: hidden characters refused, emoji sequences kept", async () => {
    for (const emoji of ["\u202E👋", "👋\u200B", "👋\u2066", "\u200D👋"]) {
      const res = await http.put(
        `/api/communities/${communityId}/categories`,
        { categories: [{ name: "Introductions", emoji }] },
        { cookie: owner.cookie },
      );
      expect(res.status, JSON.stringify(emoji)).toBe(400);
      expect(error(res), JSON.stringify(emoji)).toBe(MSG.nameHiddenCharacters);
    }
    ok(
      await http.put(
        `/api/communities/${communityId}/categories`,
        { categories: [{ name: "Introductions", emoji: "👩\u200D💻" }] },
        { cookie: owner.cookie },
      ),
    );
  });

  it("names in other scripts, with accents, joiners where a script needs them and emoji still pass", async () => {
    const user = await signedInUser(t);
    const names = [
      "山田 太郎",
      "日本の写真クラブ",
      "Zoë Åström-Núñez",
      "محمد العربي",
      "می\u200Cخواهم",
      "क्\u200Dष Patel",
      "Ελένη Παπαδοπούλου",
      "Сергей Иванов",
      "Maya 🎨",
      "👩\u200D💻 Coders",
      "🏳️\u200D🌈 Pride",
    ];
    for (const name of names) {
      ok(await http.patch("/api/me/profile", { full_name: name }, { cookie: user.cookie }));
      const id = unique();
      ok(
        await http.post("/api/auth/sign-up/email", {
          name,
          username: `intl_${id}`,
          email: `intl${id}@example.test`,
          password: "analytical",
        }),
      );
      const community = `${name.slice(0, 22)} ${unique()}`;
      const created = ok(await http.post("/api/communities", { name: community }, { cookie: user.cookie }), 201);
      const stored = await t.database.pool.query(`SELECT name FROM communities WHERE id = $1`, [created.body.id]);
      expect(stored.rows[0].name).toBe(community);
    }
    const rows = await t.database.pool.query(`SELECT full_name FROM user_profiles WHERE user_id = $1`, [user.id]);
    expect(rows.rows[0].full_name).toBe(names.at(-1));
  });
});

describe("item 12: community names that look like another community's", () => {
  let realId: string;
  let otherId: string;
  beforeAll(async () => {
    realId = ok(await http.post("/api/communities", { name: "Creator Growth Lab" }, { cookie: owner.cookie }), 201).body
      .id;
    const mallory = await signedInUser(t);
    otherId = ok(await http.post("/api/communities", { name: `Mallory ${unique()}` }, { cookie: mallory.cookie }), 201)
      .body.id;
    owner2 = mallory;
  });
  let owner2: User;

  it("refuses 'Сreator Growth Lab' (a Cyrillic С in a Latin word) on create and on rename", async () => {
    const spoof = "\u0421reator Growth Lab";
    const created = await http.post("/api/communities", { name: spoof }, { cookie: owner2.cookie });
    expect(created.status).toBe(400);
    expect(error(created)).toBe(MSG.nameMixedScripts);
    const renamed = await http.patch(`/api/communities/${otherId}`, { name: spoof }, { cookie: owner2.cookie });
    expect(renamed.status).toBe(400);
    expect(error(renamed)).toBe(MSG.nameMixedScripts);
    const rows = await t.database.pool.query(`SELECT count(*)::int AS n FROM communities WHERE name = $1`, [spoof]);
    expect(rows.rows[0].n).toBe(0);
  });

  const LOOKALIKES = [
    "Creator Growth Lab",
    "creator growth LAB",
    "Creator  Growth Lab",
    "\uFF23\uFF52\uFF45\uFF41\uFF54\uFF4F\uFF52 Growth Lab",
    "Creator Growth 1ab",
    "Creator\u00A0Growth Lab",
  ];

  it("refuses the same name, or a skeleton-equal one, beside the real one: 409 on create", async () => {
    for (const name of LOOKALIKES) {
      const res = await http.post("/api/communities", { name }, { cookie: owner2.cookie });
      expect(res.status, name).toBe(409);
      expect(error(res), name).toBe(MSG.communityNameConfusable);
    }
    // A whole word in another alphabet: Cyrillic 'Сосо' beside Latin 'Coco'.
    ok(await http.post("/api/communities", { name: "Coco Club" }, { cookie: owner.cookie }), 201);
    const cyrillic = await http.post(
      "/api/communities",
      { name: "\u0421\u043E\u0441\u043E Club" },
      { cookie: owner2.cookie },
    );
    expect(cyrillic.status).toBe(409);
    expect(error(cyrillic)).toBe(MSG.communityNameConfusable);
    // A capital I for an l.
    ok(await http.post("/api/communities", { name: "PayPal Club" }, { cookie: owner.cookie }), 201);
    const capitalI = await http.post("/api/communities", { name: "PayPaI Club" }, { cookie: owner2.cookie });
    expect(capitalI.status).toBe(409);
    expect(error(capitalI)).toBe(MSG.communityNameConfusable);
    const rows = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM communities WHERE name_key_lower = community_name_key_lower('Creator Growth Lab')`,
    );
    expect(rows.rows[0].n).toBe(1);
  });

  it("still allows names that only resemble each other in spelling", async () => {
    for (const name of [
      "Creator Growth Labs",
      "Creator Growth Lab 2",
      "Creative Growth Lab",
      "Mail Club",
      "Mali Club",
    ]) {
      ok(await http.post("/api/communities", { name }, { cookie: owner2.cookie }), 201);
    }
  });

  it("refuses a rename to a look-alike of another community, but not of itself", async () => {
    for (const name of LOOKALIKES) {
      const res = await http.patch(`/api/communities/${otherId}`, { name }, { cookie: owner2.cookie });
      expect(res.status, name).toBe(409);
      expect(error(res), name).toBe(MSG.communityNameConfusable);
    }
    ok(await http.patch(`/api/communities/${realId}`, { name: "creator growth lab" }, { cookie: owner.cookie }));
    ok(await http.patch(`/api/communities/${realId}`, { name: "Creator Growth Lab" }, { cookie: owner.cookie }));
    ok(await http.patch(`/api/communities/${otherId}`, { name: "Growth Lab Two" }, { cookie: owner2.cookie }));
  });

  it("checks against communities made by any path (the key is kept by the database)", async () => {
    // As the paid-plan trial or the seed write them: straight into the table.
    await t.database.pool.query(
      `INSERT INTO communities (name, slug, invite_code, created_by) VALUES ('Night Owls', $1, $1, $2)`,
      [`night-owls-${unique()}`, owner.id],
    );
    const res = await http.post("/api/communities", { name: "NIGHT OWLS" }, { cookie: owner2.cookie });
    expect(res.status).toBe(409);
    expect(error(res)).toBe(MSG.communityNameConfusable);
  });

  it("lets one of concurrent creations of look-alike names through", async () => {
    const name = `Race ${unique()}`;
    const results = await Promise.all(
      [name, name.toUpperCase(), name, name.toLowerCase(), name, name].map((n) =>
        http.post("/api/communities", { name: n }, { cookie: owner.cookie }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it("keeps communities that already shared a name before this rule, and lets them save their settings", async () => {
    const slug = `old-twin-${unique()}`;
    const twins = await t.database.pool.query<{ id: string }>(
      `INSERT INTO communities (name, slug, invite_code, created_by)
       VALUES ('Old Twins', $1, $1, $3), ('Old Twins', $2, $2, $3) RETURNING id`,
      [slug, `${slug}-1`, owner.id],
    );
    await t.database.pool.query(
      `INSERT INTO community_members (community_id, user_id, role) SELECT id, $1, 'owner' FROM communities WHERE id = ANY($2)`,
      [owner.id, twins.rows.map((r) => r.id)],
    );
    ok(
      await http.patch(
        `/api/communities/${twins.rows[1].id}`,
        { name: "Old Twins", description: "Still here" },
        { cookie: owner.cookie },
      ),
    );
  });
});

describe("item 13: mail sent before the address is confirmed carries no sign-up name", () => {
  const LURE = "Claim your prize http://evil.example/x";

  async function mailsTo(email: string) {
    const res = await t.database.pool.query<{ subject: string; text: string; html: string | null }>(
      `SELECT subject, text, html FROM mail_messages WHERE "to" = $1 ORDER BY created_at`,
      [email],
    );
    return res.rows;
  }

  it("the confirmation mail", async () => {
    const id = unique();
    const email = `lure${id}@example.test`;
    ok(
      await http.post("/api/auth/sign-up/email", {
        name: LURE,
        username: `lure_${id}`,
        email,
        password: "analytical",
      }),
    );
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual(["Confirm your email for Hearth"]);
    for (const m of mails) {
      const all = `${m.subject}\n${m.text}\n${m.html ?? ""}`;
      expect(all).not.toContain("evil.example");
      expect(all).not.toContain("Claim your prize");
    }
  });

  it("the 'someone tried to sign up with your email' mail", async () => {
    const existing = await signedInUser(t);
    ok(
      await http.post("/api/auth/sign-up/email", {
        name: LURE,
        username: `lure_${unique()}`,
        email: existing.email,
        password: "analytical",
      }),
    );
    const mails = await mailsTo(existing.email);
    expect(mails.length).toBeGreaterThan(0);
    for (const m of mails) {
      const all = `${m.subject}\n${m.text}\n${m.html ?? ""}`;
      expect(all).not.toContain("evil.example");
      expect(all).not.toContain("Claim your prize");
    }
  });
});
