import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { COMMUNITY_LIMITS } from "#shared/communities";
import { createTestApp, type TestApp } from "#server/test/harness";
import { seedDemo } from "./seed";

// Shared by seed.test.ts, seed-posts.test.ts and seed-courses.test.ts: an app whose database holds
// the demo seed, what the seed logged and how long it took, and every community as seeded.

type Row = Record<string, unknown>;
export type CommunityRow = {
  id: string;
  name: string;
  slug: string;
  description: string;
  tagline: string;
  category: string;
  type: string;
  price: string;
  visibility: string;
  member_count: number;
  rows: number;
  icon_url: string | null;
  cover_url: string | null;
  image_url: string | null;
  invite_code: string;
  rules: string[];
  created_by: string;
  creator_name: string;
  onboarding_completed: boolean;
  onboarding_tasks_completed: string[];
  owner_email: string;
  owner_rows: number;
  owner_is_creator: boolean;
  categories: number;
  online: number;
};

export let t: TestApp;
export let seedMs = 0;
export let list: CommunityRow[];
export const logged: string[] = [];
export const query = async <T = Row>(q: ReturnType<typeof sql>) => (await t.database.db.execute(q)).rows as T[];
export const userId = async (email: string) =>
  (await query<{ id: string }>(sql`select id from "user" where email = ${email}`))[0].id;

/** Seeds the demo into a fresh app before the file's tests; closes it after. */
export function useSeededApp() {
  beforeAll(async () => {
    t = await createTestApp();
    const started = performance.now();
    const seeded = await seedDemo({
      db: t.database.db,
      storage: t.app.ctx.storage,
      log: { info: (m) => logged.push(m) },
    });
    seedMs = performance.now() - started;
    expect(seeded).toBe(true);
    list = await query<CommunityRow>(sql`
      select c.*, u.email as owner_email,
        (select count(*)::int from community_members m where m.community_id = c.id) as rows,
        (select count(*)::int from community_members m where m.community_id = c.id and m.role = 'owner') as owner_rows,
        exists (select 1 from community_members m where m.community_id = c.id and m.role = 'owner'
                and m.user_id = c.created_by) as owner_is_creator,
        (select count(*)::int from post_categories p where p.community_id = c.id) as categories,
        (select count(*)::int from community_members m where m.community_id = c.id
           and m.last_active_at > now() - make_interval(mins => ${COMMUNITY_LIMITS.onlineWindowMinutes})) as online
      from communities c join "user" u on u.id = c.created_by`);
  }, 60_000);
  afterAll(() => t.close());
}
