// Module hooks (node:module register) registered by loader.mjs: the project's own `.ts` files are
// compiled here with esbuild, as tsx compiles them but without keepNames; everything else goes to
// the next loader (tsx). Imports are resolved by tsx.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";

// The compiler options esbuild reads (target, jsx, class fields…), from the project's tsconfig.json.
const tsconfigRaw = JSON.parse(readFileSync(new URL("../tsconfig.json", import.meta.url), "utf8"));
const target = `node${process.versions.node}`;

/** @type {import("node:module").LoadHook} */
export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:")) return nextLoad(url, context);
  const { pathname } = new URL(url);
  if (!pathname.endsWith(".ts") || pathname.includes("/node_modules/")) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const { code } = await transform(await readFile(file, "utf8"), {
    loader: "ts",
    format: "esm",
    target,
    sourcemap: "inline",
    sourcefile: file,
    tsconfigRaw,
  });
  return { format: "module", source: code, shortCircuit: true };
}
