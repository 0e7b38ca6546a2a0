/**
 * A job worker in a process of its own, for the SIGKILL test in lib/jobs.test.ts: it claims the
 * jobs of one queue with a short lease, says "claimed <id>" and never finishes them, so the test
 * can kill it while it holds one. Arguments: the database URL, the queue, the lease in ms.
 */
import { connectDatabase } from "#server/db/client";
import { JobWorker } from "#server/lib/jobs";

const [url, queue, leaseMs] = process.argv.slice(2);
const database = connectDatabase(url, { max: 2 });
const worker = new JobWorker(
  database.db,
  {
    [queue]: async (payload) => {
      process.stdout.write(`claimed ${JSON.stringify(payload)}\n`);
      await new Promise(() => {});
    },
  },
  { error: (obj, msg) => console.error(msg, obj) },
  { leaseMs: Number(leaseMs) },
);
void worker.runOnce();
