import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { connectDatabase } from "#server/db/client";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "#server/db/embedded";
import { migrateDatabase } from "#server/db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    templateUrl: string;
  }
}

export const TEMPLATE_DB = "hearth_test_template";

/**
 * One PostgreSQL for the whole run: the bundled one in a temp dir, or TEST_DATABASE_URL.
 * Migrations run once into a template database; each test file clones it (see harness.ts).
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let dir: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dir = mkdtempSync(path.join(os.tmpdir(), "hearth-test-pg-"));
    embedded = await startEmbeddedPostgres(dir, { info: () => {}, warn: (m) => console.warn(m) });
    adminUrl = embedded.url;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${TEMPLATE_DB}`;
  const database = connectDatabase(url.toString(), { max: 1 });
  await migrateDatabase(database.pool);
  await database.close();
  project.provide("templateUrl", url.toString());
  return async () => {
    await embedded?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
