// Module hooks registered by loader.mjs: the project's own `.ts` files are compiled here with
// esbuild, as tsx compiles them but without keepNames; everything else goes to the next loader
// (tsx). Imports are resolved by tsx. `load` serves node:module `register` (Node 20, on the hooks'
// thread), `loadSync` serves `registerHooks` (Node 22.15 and later, on the main thread, where tsx
// registers its own hooks too: the two kinds must match for ours to be asked first).
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { transform, transformSync } from "esbuild";

// The compiler options esbuild reads (target, jsx, class fields…), from the project's tsconfig.json.
const tsconfigRaw = JSON.parse(readFileSync(new URL("../tsconfig.json", import.meta.url), "utf8"));
const target = `node${process.versions.node}`;

/** The file of a project `.ts` module, or null for anything that is not one. */
function ownTypeScript(url) {
  if (!url.startsWith("file:")) return null;
  const { pathname } = new URL(url);
  if (!pathname.endsWith(".ts") || pathname.includes("/node_modules/")) return null;
  return fileURLToPath(url);
}

const options = (file) => ({
  loader: "ts",
  format: "esm",
  target,
  sourcemap: "inline",
  sourcefile: file,
  tsconfigRaw,
});

/** @type {import("node:module").LoadHook} */
export async function load(url, context, nextLoad) {
  const file = ownTypeScript(url);
  if (!file) return nextLoad(url, context);
  const { code } = await transform(await readFile(file, "utf8"), options(file));
  return { format: "module", source: code, shortCircuit: true };
}

/** The same, synchronous, for `registerHooks`. */
export function loadSync(url, context, nextLoad) {
  const file = ownTypeScript(url);
  if (!file) return nextLoad(url, context);
  const { code } = transformSync(readFileSync(file, "utf8"), options(file));
  return { format: "module", source: code, shortCircuit: true };
}
