/**
 * Issue "Communities": the anonymous directory, a category page, keyset paging, keyword search and a
 * community page on a large data set (100,000 communities, 1,000,000 memberships; see
 * bench/datasets/communities.ts), each against a bare node:http server answering the same bytes.
 */
import os from "node:os";
import { performance } from "node:perf_hooks";
import { COMMUNITIES_DATASET, type CommunitiesDatasetFacts } from "../datasets/communities";
import {
  serverLatencyProbe,
  sqlCounter,
  sqlDistribution,
  sqlOf,
  startBaseline,
  startHearth,
  type FixedResponse,
} from "../lib/children";
import { prepareDataset } from "../lib/datasets";
import { fetchFixed } from "../lib/hearth-client";
import { compare, measure, serverP95Of } from "../lib/load";
import type { ResultRow, Scenario } from "../lib/scenario";
import { cores, int, pct } from "../lib/format";

const CONNECTIONS = 50;
const DIRECTORY_GOAL = 0.3;
const SERVER_P95_GOAL_MS = 20;
/**
 * The deep page measured, reached by following next_cursor from the first page: 71,976 cards in,
 * which on this data set is deep inside the 25,721 public communities that have 4 members (the
 * cursor then has to get past many equal member counts).
 */
const DEEP_PAGE = 3000;
const CATEGORY = "technology";
const PAGE_SIZE = 24;
/** Seconds of the extra one-connection measurement (at most BENCH_SECONDS). */
const SINGLE_SECONDS = 5;

type Card = { id: string; name: string; description: string; category: string | null; member_count: number };
type DirectoryPage = { items: Card[]; next_cursor: string | null };

const parsePage = (r: FixedResponse) => JSON.parse(r.body.toString()) as DirectoryPage;
const cursorPath = (base: string, cursor: string) =>
  `${base}${base.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`;

/** Directory order: member_count descending, then id ascending. */
const before = (a: Card, b: Card) =>
  a.member_count > b.member_count || (a.member_count === b.member_count && a.id < b.id);

/**
 * Follows next_cursor from `base`, checking that the order never goes back and no community repeats.
 * Returns the path of page `stopAt` (or null past the end) and how many cards were seen.
 */
async function walk(url: string, base: string, stopAt: number, check: (card: Card) => void) {
  const seen = new Set<string>();
  let last: Card | undefined;
  let path = base;
  for (let page = 1; ; page++) {
    if (page === stopAt) return { path, cards: seen.size, pages: page - 1, last };
    const body = parsePage(await fetchFixed(`${url}${path}`));
    for (const card of body.items) {
      if (seen.has(card.id)) throw new Error(`${base}: community ${card.id} repeated on page ${page}`);
      if (last && !before(last, card)) throw new Error(`${base}: page ${page} is out of directory order`);
      seen.add(card.id);
      last = card;
      check(card);
    }
    if (!body.next_cursor) return { path: null, cards: seen.size, pages: page, last };
    path = cursorPath(base, body.next_cursor);
  }
}

export const communities: Scenario = {
  name: "communities",
  title: "Communities: directory, category, paging, search and community page (100,000 communities)",
  async run(opts) {
    const dataset = await prepareDataset<CommunitiesDatasetFacts>("communities");
    const facts = dataset.facts;
    const rows: ResultRow[] = [];
    const details: string[] = [];
    const checks: string[] = [];

    const t0 = performance.now();
    const hearth = await startHearth({
      name: "communities",
      template: dataset.dir,
      nodeArgs: opts.serverNodeArgs,
      serverLatency: true,
      sqlCount: true,
    });
    const startSeconds = (performance.now() - t0) / 1000;
    try {
      const url = hearth.url;
      const term = COMMUNITIES_DATASET.searchTerm;
      const largest = facts.largestCommunity;

      // What each request must answer, checked once here; under load every body must be these bytes.
      const first = parsePage(await fetchFixed(`${url}/api/communities`));
      if (first.items.length !== PAGE_SIZE || !first.next_cursor) {
        throw new Error(`the directory's first page has ${first.items.length} cards and no next_cursor`);
      }
      const deep = await walk(url, "/api/communities", DEEP_PAGE, () => {});
      if (!deep.path) throw new Error(`the directory has fewer than ${DEEP_PAGE} pages`);
      checks.push(
        `following next_cursor from the first page to page ${int(DEEP_PAGE)} returned ${int(deep.cards)} distinct ` +
          `public communities in directory order (page ${int(DEEP_PAGE)} continues after one with ` +
          `${deep.last?.member_count} members)`,
      );
      const categoryPath = `/api/communities?category=${CATEGORY}`;
      const categoryPage = parsePage(await fetchFixed(`${url}${categoryPath}`));
      if (categoryPage.items.some((c) => c.category !== CATEGORY) || categoryPage.items.length !== PAGE_SIZE) {
        throw new Error(`${categoryPath} answered cards of another category or a short page`);
      }
      const searchPath = `/api/communities?q=${term}`;
      const search = await walk(url, searchPath, Number.POSITIVE_INFINITY, (card) => {
        if (!`${card.name} ${card.description}`.toLowerCase().includes(term)) {
          throw new Error(`${searchPath} answered "${card.name}", which does not contain "${term}"`);
        }
      });
      if (search.cards !== facts.publicSearchMatches) {
        throw new Error(
          `${searchPath} found ${search.cards} communities over all pages, not ${facts.publicSearchMatches}`,
        );
      }
      checks.push(
        `\`q=${term}\` returned all ${facts.publicSearchMatches} public matches over ${search.pages} pages, and only them`,
      );
      const communityPath = `/api/communities/${largest.slug}`;
      const view = JSON.parse((await fetchFixed(`${url}${communityPath}`)).body.toString()) as {
        member_count: number;
        viewer: { signed_in: boolean };
      };
      if (view.member_count !== largest.memberCount || view.viewer.signed_in) {
        throw new Error(`${communityPath} answered member_count ${view.member_count}, not ${largest.memberCount}`);
      }

      const reads = [
        {
          endpoint: "GET /api/communities (directory, anonymous)",
          path: "/api/communities",
          goal: DIRECTORY_GOAL,
        },
        { endpoint: `GET /api/communities?category=${CATEGORY}`, path: categoryPath },
        {
          endpoint: "GET /api/communities?cursor=… (page 2)",
          path: cursorPath("/api/communities", first.next_cursor),
        },
        { endpoint: `GET /api/communities?cursor=… (page ${int(DEEP_PAGE)})`, path: deep.path },
        { endpoint: `GET /api/communities?q=${term} (${facts.publicSearchMatches} matches)`, path: searchPath },
        {
          endpoint: `GET /api/communities/${largest.slug} (${int(largest.memberCount)} members)`,
          path: communityPath,
        },
      ];
      const fixed: Record<string, FixedResponse> = {};
      for (const read of reads) fixed[read.path] = await fetchFixed(`${url}${read.path}`);

      const baseline = await startBaseline("communities", fixed);
      try {
        for (const read of reads) {
          const request = { expectBody: fixed[read.path].body.toString(), connections: CONNECTIONS };
          const c = await compare(
            read.endpoint,
            {
              hearth: {
                ...request,
                url: `${url}${read.path}`,
                serverPid: hearth.pid,
                serverLatency: serverLatencyProbe(hearth),
              },
              baseline: { ...request, url: `${baseline.url}${read.path}`, serverPid: baseline.pid },
            },
            opts,
          );
          // Then one request at a time: the service time without queueing behind other connections.
          const single = await measure(
            `${read.endpoint} (1 connection)`,
            {
              ...request,
              connections: 1,
              url: `${url}${read.path}`,
              serverLatency: serverLatencyProbe(hearth),
              sqlCounter: sqlCounter(hearth, { attribute: true }),
            },
            { seconds: Math.min(opts.seconds, SINGLE_SECONDS), warmupSeconds: Math.min(opts.warmupSeconds, 1) },
          );
          console.error(
            `  ${read.endpoint}, one connection: ${single.requestsPerSecond.toFixed(0)} req/s, ` +
              `server p50 ${single.server?.p50} ms, p95 ${single.server?.p95} ms; SQL ${sqlDistribution(single.sqlCount!)}`,
          );
          const { requestsPerSecond, p50, p99, non2xx, errors, server } = c.hearth;
          rows.push({
            endpoint: read.endpoint,
            connections: CONNECTIONS,
            requestsPerSecond,
            p50,
            p99,
            non2xx,
            errors,
            reference: { label: "bare node:http", requestsPerSecond: c.baseline.requestsPerSecond },
            goal: read.goal,
            serverP95: serverP95Of(c).p95,
            serverP95GoalMs: SERVER_P95_GOAL_MS,
            sql: sqlOf(single.sqlCount!),
            responseBytes: fixed[read.path].body.length,
          });
          details.push(
            `- ${read.endpoint}: ${int(fixed[read.path].body.length)} bytes; ` +
              `SQL with one connection: ${sqlDistribution(single.sqlCount!)}; ` +
              (server
                ? `inside the server p50 ${server.p50} ms, p95 ${server.p95} ms, p99 ${server.p99} ms, ` +
                  `max ${server.max} ms over ${int(server.count)} requests; `
                : "") +
              (single.server
                ? `one connection: ${int(single.requestsPerSecond)} req/s, inside the server p50 ` +
                  `${single.server.p50} ms, p95 ${single.server.p95} ms; `
                : "") +
              (c.rounds.length > 1 ? `ratio by round ${c.rounds.map((r) => pct(r.ratio)).join(", ")}; ` : "") +
              serverP95Of(c).note +
              `cores while measuring Hearth: ${cores(c.hearth)}; the baseline: ${cores(c.baseline)}.`,
          );
        }
      } finally {
        await baseline.stop();
      }
    } finally {
      await hearth.stop();
    }

    const cpuCount = os.cpus().length;
    const categories = Object.entries(facts.byCategory)
      .map(([k, v]) => `${k} ${int(v)}`)
      .join(", ");
    return {
      rows,
      notes: [
        `Goal (issue): the anonymous directory at least ${Math.round(DIRECTORY_GOAL * 100)}% of its baseline, and server p95 ` +
          `under ${SERVER_P95_GOAL_MS} ms (checked on every row).`,
        `Data set \`${dataset.name}-${dataset.key}\` (\`bench/datasets/communities.ts\`): ${int(facts.communities)} ` +
          `communities (${int(facts.publicCommunities)} public, ${int(facts.privateCommunities)} private; ${categories}), ` +
          `${int(facts.memberships)} memberships of ${int(facts.users)} users, member counts Zipf-like (largest ` +
          `${int(facts.largestCommunity.memberCount)}, median ${facts.medianMemberCount}), 2–4 post categories each; no demo seed. ` +
          `Built with set-based SQL in ${dataset.buildSeconds.toFixed(1)} s (server start and migrations, load, ` +
          `checks, VACUUM ANALYZE) on ${dataset.builtAt}${dataset.reused ? " and reused for this run" : ", this run"}; ` +
          `copying the prepared data directory and starting Hearth on the copy took ${startSeconds.toFixed(1)} s.`,
        `Responses checked before measuring: ${checks.join("; ")}; the community page answers the largest ` +
          `public community with its ${int(facts.largestCommunity.memberCount)} members, anonymously.`,
        `How it was measured: as in the Foundation section (Hearth with production config, bundled PostgreSQL and ` +
          `rate limits off, and a bare \`node:http\` server answering the same status, content type and body ` +
          `bytes, each in its own child process; autocannon in the harness on the same ${cpuCount} cores; ` +
          `${opts.warmupSeconds} s warm-up then ${opts.seconds} s measured; baseline right before Hearth, ` +
          `${opts.rounds} round${opts.rounds > 1 ? "s, the round with the median ratio shown" : ""}; ` +
          `${CONNECTIONS} connections; every body compared byte for byte). p50 and p99 are autocannon's, ` +
          `seen by the client. Server p95 is measured inside the Hearth process over the same measured seconds: ` +
          `from Node's "request" event (before Fastify) to the last response byte handed to the socket, so it ` +
          `includes waiting behind the other ${CONNECTIONS - 1} connections' requests (event loop and ` +
          `database pool) but not the network or the client. After each comparison Hearth is also measured ` +
          `with one connection for ${Math.min(opts.seconds, SINGLE_SECONDS)} s (listed below, not in the table): ` +
          `the time one request takes when it waits for nothing. SQL/req counts, in that one-connection run, the ` +
          `statements each request sent (as in the Posts section): anonymous directory and community pages are ` +
          `served from the public cache, so most make none.`,
        `Per endpoint (response size; latency inside the server at ${CONNECTIONS} connections and at one; cores in ` +
          `use, PostgreSQL included in the server's):`,
        details.join("\n"),
      ],
    };
  },
};
