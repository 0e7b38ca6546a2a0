import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { workerExecArgv } from "./cluster";

const root = path.resolve(import.meta.dirname, "../..");

/** Runs a TypeScript file of the project with `node --import ./scripts/loader.mjs`, as npm start does. */
function runTs(source: string): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(path.join(root, "src/server/.loader-test-"));
  try {
    const file = path.join(dir, "probe.ts");
    writeFileSync(file, source);
    const res = spawnSync(process.execPath, ["--import", "./scripts/loader.mjs", file], {
      cwd: root,
      encoding: "utf8",
    });
    return { status: res.status, stdout: res.stdout, stderr: res.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the TypeScript loader (scripts/loader.mjs)", () => {
  it("runs the project's TypeScript with its imports, without wrapping each function to keep its name", () => {
    const { status, stdout, stderr } = runTs(`
      import { LIMITS } from "#shared/limits";
      import { isUuid } from "#server/lib/community-access";
      type Named = { name: string };
      class Counter { count = 1; static kind = "counter"; }
      export function make(): Named {
        const check = () => 1;
        return check;
      }
      const fn = make();
      console.log(JSON.stringify({
        name: fn.name,
        wrapped: String(make).includes("__name"),
        limits: typeof LIMITS,
        uuid: isUuid("00000000-0000-4000-8000-000000000000"),
        field: new Counter().count + Counter.kind,
        at: new Error("here").stack?.split("\\n")[1].trim(),
      }));
    `);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    const out = JSON.parse(stdout) as Record<string, unknown>;
    // A function keeps the name JavaScript gives it; tsx's keepNames wraps each function expression
    // in a call that redefines it, again at every call of make().
    expect(out).toMatchObject({ name: "check", wrapped: false, limits: "object", uuid: true, field: "1counter" });
    // Stack traces point at the TypeScript source (line 17 of the probe: the `new Error`).
    expect(out.at).toMatch(/probe\.ts:17:\d+\)$/);
  });

  it("reports a syntax error with the file's name and exits non-zero", () => {
    const { status, stderr } = runTs("const x: number = ;\n");
    expect(status).not.toBe(0);
    expect(stderr).toMatch(/probe\.ts/);
  });
});

describe("workerExecArgv", () => {
  const loader = expect.stringMatching(/^file:.*\/scripts\/loader\.mjs$/);

  it("replaces tsx, in either spelling, with the project's loader and keeps the other options", () => {
    expect(workerExecArgv(["--import", "tsx", "--max-old-space-size=512"])).toEqual([
      "--max-old-space-size=512",
      "--import",
      loader,
    ]);
    expect(workerExecArgv(["--import=tsx", "--enable-source-maps"])).toEqual([
      "--enable-source-maps",
      "--import",
      loader,
    ]);
  });

  it("names the loader once, whether or not this process was started with it", () => {
    expect(workerExecArgv([])).toEqual(["--import", loader]);
    expect(workerExecArgv(["--import", "./scripts/loader.mjs", "--import", "./other.mjs"])).toEqual([
      "--import",
      "./other.mjs",
      "--import",
      loader,
    ]);
  });
});
