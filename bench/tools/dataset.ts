/**
 * Builds (or finds) a benchmark data set without running a benchmark, and prints its facts.
 *
 *   node --import tsx bench/tools/dataset.ts communities
 *   BENCH_REBUILD_DATA=1 node --import tsx bench/tools/dataset.ts communities
 */
import { prepareDataset } from "../lib/datasets";
import { DATASETS } from "../datasets/index";

const name = process.argv[2] ?? "";
if (!DATASETS[name]) {
  console.error(`usage: dataset.ts <${Object.keys(DATASETS).join("|")}>`);
  process.exit(2);
}
const prepared = await prepareDataset(name);
console.log(JSON.stringify(prepared, null, 2));
