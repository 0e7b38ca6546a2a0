import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_LIMITS, SEARCH_MESSAGES } from "#shared/search";
import { createTestApp, type TestApp } from "#server/test/harness";
import { parseQuery } from "./search.query";
import { highlights, snippet } from "./search.snippet";
import { groupOf, ids, searchFixtures } from "./search.test-helpers";

/*
 * What a query finds in text: the eight profile languages (stems, accents, CJK inside words), bad
 * input, freshness after writes, filters, both orders and keyset pages, and highlights as offsets.
 */

let t: TestApp;
let f: ReturnType<typeof searchFixtures>;
let owner: Awaited<ReturnType<ReturnType<typeof searchFixtures>["user"]>>;
let c: { id: string; slug: string };
const posts: Record<string, string> = {};

const SAMPLES = {
  en: "We went running along the river every morning",
  pt: "As comunidades do bairro organizaram uma feira",
  es: "La comunidad celebra su aniversario con música",
  fr: "Les élèves préparent un spectacle pour l'école",
  de: "Die Häuser am Fluss wurden letztes Jahr renoviert",
  it: "Abbiamo mangiato una pizza napoletana deliziosa",
  ja: "東京都の図書館で勉強会を開きました",
  zh: "我们在北京大学举办了一次读书会",
};

beforeAll(async () => {
  t = await createTestApp();
  f = searchFixtures(t);
  owner = await f.user();
  c = await f.community(owner, { name: "Text" });
  // Each sample is written by someone whose profile language is the sample's (its stems are that language's).
  for (const [lang, text] of Object.entries(SAMPLES)) {
    await f.q(`UPDATE user_profiles SET language = $2 WHERE user_id = $1`, [owner.id, lang]);
    posts[lang] = await f.post(c.id, owner, text);
  }
  await f.q(`UPDATE user_profiles SET language = 'en' WHERE user_id = $1`, [owner.id]);
});
afterAll(() => t.close());

const find = async (q: string, extra: Record<string, string> = {}) => {
  const res = await f.communitySearch(c.id, { q, kind: "post", ...extra }, owner);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ids(res.body, "post");
};

describe("languages", () => {
  it.each([
    ["run ", "en"],
    ["runs ", "en"],
    ["comunidades ", "es"],
    ["comunidad ", "pt"],
    ["eleve ", "fr"],
    ["ÉLÈVES ", "fr"],
    ["ecole ", "fr"],
    ["hauser ", "de"],
    ["Häuser ", "de"],
    ["napoletane ", "it"],
    ["図書 ", "ja"],
    ["京都 ", "ja"],
    ["北京 ", "zh"],
    ["读书", "zh"],
    ['"river every morning"', "en"],
  ])("%s finds the %s sample", async (query, lang) => {
    expect(await find(query)).toContain(posts[lang]);
  });

  it.each([
    ["runner ", "en"],
    ["図館 ", "ja"],
    ["上海 ", "zh"],
    ['"morning every river"', "en"],
    ["pizza ", "de"],
  ])("%s does not find the %s sample", async (query, lang) => {
    expect(await find(query)).not.toContain(posts[lang]);
  });

  it("a word being typed matches as a prefix; a finished one does not", async () => {
    expect(await find("napol")).toContain(posts.it);
    expect(await find("napol ")).not.toContain(posts.it);
  });
});

describe("bad input answers results or nothing, never an error", () => {
  it.each([
    "!!!",
    "a & b | !c",
    "'quoted' \"unclosed",
    "back\\slash\\",
    ":* <-> & | ! ( )",
    "😀🎉",
    "   ",
    "x".repeat(SEARCH_LIMITS.queryAcceptMax),
    "run ".repeat(250),
    "\u0000 null",
  ])("%#", async (query) => {
    for (const kind of [undefined, "post", "comment", "lesson", "course", "member"]) {
      const res = await f.communitySearch(c.id, { q: query, ...(kind ? { kind } : {}) }, owner);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.q.length).toBeLessThanOrEqual(SEARCH_LIMITS.queryMax);
    }
  });

  it("over queryAcceptMax characters is refused with the text", async () => {
    const res = await f.communitySearch(c.id, { q: "x".repeat(SEARCH_LIMITS.queryAcceptMax + 1) }, owner);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(SEARCH_MESSAGES.queryTooLong);
  });

  it("a forged cursor is refused", async () => {
    const res = await f.communitySearch(c.id, { q: "run", kind: "post", cursor: "bm9wZQ" }, owner);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(SEARCH_MESSAGES.badCursor);
  });
});

describe("freshness", () => {
  it("a post, an edit, a comment and a deletion show at once", async () => {
    const id = await f.post(c.id, owner, "A marmalade recipe");
    expect(await find("marmalade ")).toEqual([id]);
    expect(
      (await f.http.patch(`/api/posts/${id}`, { content: "A quince jam recipe" }, { cookie: owner.cookie })).status,
    ).toBe(200);
    expect(await find("marmalade ")).toEqual([]);
    expect(await find("quince ")).toEqual([id]);
    const cid = await f.comment(id, owner, "Add cardamom to taste");
    const res = await f.communitySearch(c.id, { q: "cardamom", kind: "comment" }, owner);
    expect(ids(res.body, "comment")).toEqual([cid]);
    expect(groupOf(res.body, "comment").results[0].href).toBe(`/post/${id}#comment-${cid}`);
    expect(
      (await f.http.patch(`/api/comments/${cid}`, { content: "Add cinnamon" }, { cookie: owner.cookie })).status,
    ).toBe(200);
    expect(ids((await f.communitySearch(c.id, { q: "cardamom", kind: "comment" }, owner)).body, "comment")).toEqual([]);
    expect((await f.http.delete(`/api/comments/${cid}`, { cookie: owner.cookie })).status).toBeLessThan(300);
    expect(ids((await f.communitySearch(c.id, { q: "cinnamon", kind: "comment" }, owner)).body, "comment")).toEqual([]);
    expect((await f.http.delete(`/api/posts/${id}`, { cookie: owner.cookie })).status).toBeLessThan(300);
    expect(await find("quince ")).toEqual([]);
  });

  it("poll options and link preview titles are searched", async () => {
    const id = await f.post(c.id, owner, "Vote please", { type: "poll", poll: { options: ["Gooseberry", "Rhubarb"] } });
    expect(await find("gooseberry")).toEqual([id]);
    await f.q(`UPDATE posts SET link_preview = $2 WHERE id = $1`, [
      id,
      JSON.stringify({ url: "https://example.test", title: "Persimmon harvest", description: "", image: null }),
    ]);
    expect(await find("persimmon")).toEqual([id]);
  });
});

describe("paging, orders and filters", () => {
  let made: string[] = [];
  beforeAll(async () => {
    made = [];
    for (let i = 0; i < 7; i++) {
      const text = i === 3 ? "zucchini zucchini zucchini bread and zucchini cake" : `zucchini note number ${i}`;
      made.push(await f.post(c.id, owner, text));
    }
  });

  it("newest pages by keyset without repeats or gaps", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await f.communitySearch(
        c.id,
        { q: "zucchini", kind: "post", order: "newest", limit: "3", ...(cursor ? { cursor } : {}) },
        owner,
      );
      expect(res.status).toBe(200);
      const g = groupOf(res.body, "post");
      expect(g.count).toBe(7);
      seen.push(...g.results.map((r) => r.id));
      if (!g.next_cursor) break;
      cursor = g.next_cursor;
    }
    expect(seen).toEqual([...made].reverse());
  });

  it("relevance puts the densest match first, then newest; pages cover every match once", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await f.communitySearch(
        c.id,
        { q: "zucchini", kind: "post", limit: "2", ...(cursor ? { cursor } : {}) },
        owner,
      );
      const g = groupOf(res.body, "post");
      seen.push(...g.results.map((r) => r.id));
      if (!g.next_cursor) break;
      cursor = g.next_cursor;
    }
    expect(seen[0]).toBe(made[3]);
    expect(seen.slice(1)).toEqual(made.filter((_, i) => i !== 3).reverse());
  });

  it("a cursor of another order or kind is refused", async () => {
    const res = await f.communitySearch(c.id, { q: "zucchini", kind: "post", limit: "2" }, owner);
    const cursor = groupOf(res.body, "post").next_cursor ?? "";
    expect(
      (await f.communitySearch(c.id, { q: "zucchini", kind: "post", order: "newest", cursor }, owner)).status,
    ).toBe(400);
    expect((await f.communitySearch(c.id, { q: "zucchini", kind: "comment", cursor }, owner)).status).toBe(400);
  });

  it("category, author and dates filter", async () => {
    const other = await f.user();
    await f.addMember(c.id, other);
    const theirs = await f.post(c.id, other, "zucchini from another author");
    expect(await find("zucchini", { author: other.username })).toEqual([theirs]);
    expect(await find("zucchini", { author: "nobody_here" })).toEqual([]);
    const [cat] = await f.q<{ id: string }>(
      `INSERT INTO post_categories (community_id, name) VALUES ($1, 'Veg') RETURNING id`,
      [c.id],
    );
    await f.q(`UPDATE posts SET category_id = $2 WHERE id = $1`, [made[0], cat.id]);
    expect(await find("zucchini", { category: cat.id })).toEqual([made[0]]);
    await f.q(`UPDATE posts SET created_at = '2025-03-10T12:00:00Z' WHERE id = $1`, [made[1]]);
    await f.q(`UPDATE search_documents SET created_at = '2025-03-10T12:00:00Z' WHERE doc_id = $1`, [made[1]]);
    expect(await find("zucchini", { from: "2025-03-10", to: "2025-03-10" })).toEqual([made[1]]);
    expect(await find("zucchini", { to: "2025-03-09" })).toEqual([]);
    expect(await find("zucchini", { from: "2025-03-11" })).not.toContain(made[1]);
  });

  it("without a kind every kind comes grouped with counts", async () => {
    const res = await f.communitySearch(c.id, { q: "zucchini" }, owner);
    expect(res.body.groups.map((g) => g.kind)).toEqual(["post", "comment", "lesson", "course", "member"]);
    expect(groupOf(res.body, "post").count).toBeGreaterThanOrEqual(7);
  });
});

describe("a community larger than the walk of newest documents", () => {
  // 2,100 posts, one a minute back from now (n = 1 newest): more than the newest documents a search
  // walks before asking the GIN index, so both ways of finding the window are exercised.
  const POSTS = 2_100;
  let big: { id: string };
  let byN: Map<number, string>;
  beforeAll(async () => {
    big = await f.community(owner, { name: "Big" });
    const rows = await f.q<{ id: string; n: number }>(
      `INSERT INTO posts (community_id, author_id, content, visibility, created_at, updated_at)
       SELECT $1, $2,
              'bulk note ' || n || CASE WHEN n % 40 = 0 THEN ' wallaby' ELSE '' END
                || CASE WHEN n >= $3::int - 1 THEN ' pangolin' ELSE '' END,
              CASE WHEN n = $3::int - 1 THEN 'admins' ELSE 'public' END,
              now() - make_interval(mins => n), now()
         FROM generate_series(1, $3::int) n
       RETURNING id, (regexp_match(content, 'bulk note ([0-9]+)'))[1]::int AS n`,
      [big.id, owner.id, POSTS],
    );
    byN = new Map(rows.map((r) => [r.n, r.id]));
  });
  const bigFind = (params: Record<string, string>) => f.communitySearch(big.id, { kind: "post", ...params });

  it("a common word fills the capped window from the newest posts", async () => {
    const g = groupOf((await bigFind({ q: "bulk" })).body, "post");
    expect(g.count).toBe(SEARCH_LIMITS.countCap);
    expect(g.results.map((r) => r.id)).toEqual(Array.from({ length: SEARCH_LIMITS.page }, (_, i) => byN.get(i + 1)));
  });

  it("the grouped first page shows a few of each kind; its cursor goes on a page at a time", async () => {
    const grouped = groupOf((await f.communitySearch(big.id, { q: "bulk" })).body, "post");
    expect(grouped.count).toBe(SEARCH_LIMITS.countCap);
    const newest = (from: number, length: number) => Array.from({ length }, (_, i) => byN.get(from + i));
    expect(grouped.results.map((r) => r.id)).toEqual(newest(1, SEARCH_LIMITS.groupPage));
    const next = groupOf((await bigFind({ q: "bulk", cursor: grouped.next_cursor ?? "" })).body, "post");
    expect(next.results.map((r) => r.id)).toEqual(newest(SEARCH_LIMITS.groupPage + 1, SEARCH_LIMITS.page));
    // A limit asked for is kept, grouped or not.
    const asked = groupOf((await f.communitySearch(big.id, { q: "bulk", limit: "7" })).body, "post");
    expect(asked.results).toHaveLength(7);
  });

  it("a word too rare for the walk is found through the index, however old, and only where readable", async () => {
    const g = groupOf((await bigFind({ q: "pangolin" })).body, "post");
    expect(g.results.map((r) => r.id)).toEqual([byN.get(POSTS)]);
    expect(g.count).toBe(1);
    // Asked again, it goes straight to the index (the way that answered is remembered): the same answer.
    expect((await bigFind({ q: "pangolin" })).body).toEqual((await bigFind({ q: "pangolin" })).body);
    expect(groupOf((await bigFind({ q: "pangolin" })).body, "post").results.map((r) => r.id)).toEqual([byN.get(POSTS)]);
  });

  it("a word the walk finds too few of is counted and paged exactly through the index", async () => {
    const expected = Array.from({ length: Math.floor(POSTS / 40) }, (_, i) => byN.get((i + 1) * 40));
    const seen: (string | undefined)[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const g = groupOf(
        (await bigFind({ q: "wallaby", order: "newest", limit: "25", ...(cursor ? { cursor } : {}) })).body,
        "post",
      );
      expect(g.count).toBe(expected.length);
      seen.push(...g.results.map((r) => r.id));
      if (!g.next_cursor) break;
      cursor = g.next_cursor;
    }
    expect(seen).toEqual(expected);
  });

  it("a remembered way still finds the newest: a word the longer walk answered, then posted again many times", async () => {
    const other = await f.community(owner, { name: "Longer walk" });
    await f.q(
      `INSERT INTO posts (community_id, author_id, content, created_at, updated_at)
       SELECT $1, $2, 'older note ' || n || CASE WHEN n % 40 = 0 THEN ' wombat' ELSE '' END,
              now() - make_interval(mins => n + 1000), now()
         FROM generate_series(1, $3::int) n`,
      [other.id, owner.id, POSTS],
    );
    const wombats = async () =>
      groupOf((await f.communitySearch(other.id, { q: "wombat", kind: "post" })).body, "post");
    const first = await wombats();
    expect(first.count).toBe(Math.floor(POSTS / 40));
    // Asked again, it starts at the longer walk it needed: the same answer.
    expect(await wombats()).toEqual(first);
    // Now the word is common among the newest posts: the window is the newest of them, capped.
    const fresh = await f.q<{ id: string }>(
      `INSERT INTO posts (community_id, author_id, content, created_at, updated_at)
       SELECT $1, $2, 'fresh wombat ' || n, now() - make_interval(secs => n), now()
         FROM generate_series(1, 150) n ORDER BY n RETURNING id`,
      [other.id, owner.id],
    );
    const after = await wombats();
    expect(after.count).toBe(SEARCH_LIMITS.countCap);
    expect(after.results.map((r) => r.id)).toEqual(fresh.slice(0, SEARCH_LIMITS.page).map((r) => r.id));
  });
});

describe("highlights", () => {
  it("are offsets of the matched words in plain text", () => {
    const text = "I love running, and <b>Running</b> too; ran";
    const spans = highlights(text, parseQuery("run "));
    expect(spans.map(([s, e]) => text.slice(s, e))).toEqual(["running", "Running"]);
    const ja = "東京都の図書館";
    expect(highlights(ja, parseQuery("図書")).map(([s, e]) => ja.slice(s, e))).toEqual(["図書"]);
    const long = `${"word ".repeat(100)}needle ${"word ".repeat(100)}`;
    const sn = snippet(long, parseQuery("needle "));
    expect(sn.text.length).toBeLessThanOrEqual(SEARCH_LIMITS.snippet + 2);
    expect(sn.highlights.map(([s, e]) => sn.text.slice(s, e))).toEqual(["needle"]);
  });

  it("in ASCII text (looked for where the terms' first letters occur) match as in any other text", () => {
    const texts = [
      "Pulled my best BREAD yet; bread-making, breadth and abreast. Breads! r2d2 runs Running runner",
      "starter care: Starters, started, star, STARTING and a restart, care-free careful",
      "x bre brea bread breadcrumbs 12bread bread12 ab abc abcd",
    ];
    const queries = ["bread", "bre", "starter care", "run", "ab", "r2", "breads ", '"starter care" ca', "care"];
    for (const text of texts)
      for (const q of queries) {
        const clauses = parseQuery(q);
        // A non-ASCII character at the end sends the same text through the general path.
        const general = highlights(`${text} é`, clauses).filter(([, e]) => e <= text.length);
        expect(highlights(text, clauses), `${q} in ${text}`).toEqual(general);
      }
  });

  it("come back with results", async () => {
    const res = await f.communitySearch(c.id, { q: "comunidades", kind: "post" }, owner);
    const r = groupOf(res.body, "post").results.find((x) => x.id === posts.pt);
    expect(r?.snippet.highlights.map(([s, e]) => r.snippet.text.slice(s, e))).toEqual(["comunidades"]);
  });
});

describe("the backfill", () => {
  it("indexes rows written before the triggers, in batches, keeping newer documents", async () => {
    const old = await f.post(c.id, owner, "Tamarind chutney from the archive");
    await f.q(`DELETE FROM search_documents WHERE kind = 'post' AND doc_id = $1`, [old]);
    expect(await find("tamarind")).toEqual([]);
    await f.q(`UPDATE search_backfill SET done = false, last_id = ''`);
    // Rows are taken in creation order (not id order), so a community's newest documents sit together.
    await f.q(`UPDATE posts SET created_at = created_at - interval '1 hour' WHERE id = $1`, [posts.de]);
    const created = await f.q<{ id: string }>(`SELECT id::text AS id FROM posts ORDER BY created_at, id`);
    let batches = 0;
    for (;;) {
      const [{ n }] = await f.q<{ n: number }>(`SELECT hearth_search_backfill('post', 3) AS n`);
      if (batches++ === 0) {
        const list = await f.q<{ id: string }>(`SELECT id FROM search_backfill_queue WHERE kind = 'post' ORDER BY seq`);
        expect(list.map((r) => r.id)).toEqual(created.map((r) => r.id));
        const [at] = await f.q<{ next_seq: number }>(`SELECT next_seq FROM search_backfill WHERE kind = 'post'`);
        expect(Number(at.next_seq)).toBe(3);
      }
      if (n < 3) break;
    }
    expect(batches).toBeGreaterThan(2);
    expect(await find("tamarind")).toEqual([old]);
    const [state] = await f.q<{ done: boolean; next_seq: number | null }>(
      `SELECT done, next_seq FROM search_backfill WHERE kind = 'post'`,
    );
    expect(state).toEqual({ done: true, next_seq: null });
    expect(await f.q(`SELECT 1 FROM search_backfill_queue`)).toEqual([]);
  });

  it("goes on after the rows an earlier id-order run passed, and skips rows deleted since the list", async () => {
    const a = await f.post(c.id, owner, "Quince paste, the first jar");
    const b = await f.post(c.id, owner, "Quince paste, the second jar");
    await f.q(`DELETE FROM search_documents WHERE kind = 'post' AND doc_id = ANY($1)`, [[a, b]]);
    // An earlier version's progress: every id up to the smaller of the two was indexed.
    const [lo, hi] = [a, b].sort();
    await f.q(`UPDATE search_backfill SET done = false, last_id = $1, next_seq = NULL WHERE kind = 'post'`, [lo]);
    const [{ n }] = await f.q<{ n: number }>(`SELECT hearth_search_backfill('post', 1) AS n`);
    expect(n).toBe(1);
    const list = await f.q<{ id: string }>(`SELECT id FROM search_backfill_queue WHERE kind = 'post' ORDER BY seq`);
    expect(list.map((r) => r.id)).toContain(hi);
    expect(list.map((r) => r.id)).not.toContain(lo);
    expect(list.every((r) => r.id > lo)).toBe(true);
    await f.q(`UPDATE posts SET deleted_at = now() WHERE id = $1`, [hi]);
    await f.q(`DELETE FROM search_documents WHERE kind = 'post' AND doc_id = $1`, [hi]);
    while ((await f.q<{ n: number }>(`SELECT hearth_search_backfill('post', 1) AS n`))[0].n === 1);
    expect(await find("quince")).toEqual([]);
  });
});
