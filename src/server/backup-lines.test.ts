import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonLines } from "../../scripts/backup";

const dir = mkdtempSync(path.join(os.tmpdir(), "hearth-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(text: string): Promise<string[]> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, text);
  const out: string[] = [];
  for await (const line of jsonLines(file)) out.push(line);
  return out;
}

describe("a backup's rows files are read line by line", () => {
  it("keeps U+2028 and U+2029 inside a row (PostgreSQL's JSON leaves them unescaped; readline ends lines there since Node 22)", async () => {
    const rows = [{ content: "one\u2028two\u2029three" }, { source: "\u2028" }, { content: "last" }];
    const lines = await read(
      rows.map((r) => JSON.stringify(r).replace(/\\u2028|\\u2029/g, (m) => JSON.parse(`"${m}"`))).join("\n") + "\n",
    );
    expect(lines.map((l) => JSON.parse(l))).toEqual(rows);
  });

  it("joins a row cut across chunks and keeps a last row without a newline", async () => {
    const long = "x".repeat(200_000);
    const lines = await read(`{"a":"${long}"}\n{"b":1}`);
    expect(lines).toEqual([`{"a":"${long}"}`, `{"b":1}`]);
  });
});
