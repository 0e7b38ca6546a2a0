import type pg from "pg";
import { buildCommunitiesDataset, COMMUNITIES_DATASET } from "./communities";
import { buildPostsDataset, POSTS_DATASET } from "./posts";
import { buildSearchDataset, SEARCH_DATASET } from "./search";

/** A data set a scenario runs against: built once into a Hearth data directory, then copied per run. */
export type DatasetDefinition = {
  name: string;
  /** Bump when the rows change; the key also covers the definition file and the migrations. */
  version: number;
  /** The file that defines it (part of the key: editing it rebuilds). */
  file: string;
  /** Fills a freshly started, migrated Hearth database (no demo seed); returns facts to report. */
  build: (client: pg.Client, log: (line: string) => void) => Promise<unknown>;
};

export const DATASETS: Record<string, DatasetDefinition> = {
  communities: {
    name: COMMUNITIES_DATASET.name,
    version: COMMUNITIES_DATASET.version,
    file: "bench/datasets/communities.ts",
    build: buildCommunitiesDataset,
  },
  posts: {
    name: POSTS_DATASET.name,
    version: POSTS_DATASET.version,
    file: "bench/datasets/posts.ts",
    build: buildPostsDataset,
  },
  search: {
    name: SEARCH_DATASET.name,
    version: SEARCH_DATASET.version,
    file: "bench/datasets/search.ts",
    build: buildSearchDataset,
  },
};
