// How Node runs Hearth's TypeScript: `node --import ./scripts/loader.mjs src/server/main.ts` (npm start,
// the workers, the benchmarks). tsx resolves the imports (extensionless paths, `#server/*`) and loads
// everything but the project's own `.ts` files, which loader-hooks.mjs compiles with esbuild.
// tsx compiles with esbuild's keepNames, which wraps every function expression in a call that
// redefines its `name`: about 0.7 µs and 250 bytes more for each closure made, on every request
// (docs/decisions/0026-typescript-loader-and-streams.md).
import * as nodeModule from "node:module";
import { register as registerTsx } from "tsx/esm/api";

registerTsx();
// Registered last, so asked first: it answers for the project's .ts files and passes the rest on.
// Where Node has in-thread hooks (22.15 and later), tsx uses them, and so must this.
if (typeof nodeModule.registerHooks === "function") {
  const { loadSync } = await import("./loader-hooks.mjs");
  nodeModule.registerHooks({ load: loadSync });
} else {
  nodeModule.register("./loader-hooks.mjs", import.meta.url);
}
