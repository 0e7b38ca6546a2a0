import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const repoRoot = path.dirname(fileURLToPath(import.meta.url));
const apiTarget = "http://127.0.0.1:3000";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** What is worth compressing: text. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

/**
 * Writes `.br` and `.gz` beside each text file of the build, once, at the highest levels: the
 * server sends them as they are (`@fastify/static` with `preCompressed`), so no request pays for
 * compression and every page loads about a third of the bytes.
 */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "hearth-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // The browser's files only: the server's renderer (dist/ssr) is read from disk, never sent.
      if (this.environment.name !== "client") return;
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
        .map((e) => path.join(e.parentPath, e.name));
      await Promise.all(
        files.map(async (file) => {
          const data = await readFile(file);
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzip(data, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * React Router publishes its production build beside the development one but exports only the
 * latter, whose sole difference is `ENABLE_DEV_WARNINGS = true`: warnings for developers, printed in
 * visitors' consoles, and their code in every page. Builds take the production files.
 */
const reactRouterProduction = [
  { find: /^react-router$/, replacement: path.join(repoRoot, "node_modules/react-router/dist/production/index.mjs") },
  {
    find: /^react-router\/dom$/,
    replacement: path.join(repoRoot, "node_modules/react-router/dist/production/dom-export.mjs"),
  },
];

export default defineConfig(({ command }) => ({
  root: "src/web",
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: command === "build" ? reactRouterProduction : [] },
  // `vite build` builds every environment: the browser's app (client, below), then the server's
  // renderer of first views (ssr), docs/decisions/0027-first-view-on-the-server.md.
  builder: {},
  environments: {
    ssr: {
      // One file with its libraries in it, and React's production build whatever NODE_ENV the
      // server runs under: the development build checks every render at several times the cost.
      resolve: { noExternal: true },
      define: { "process.env.NODE_ENV": JSON.stringify("production") },
      build: {
        outDir: path.join(repoRoot, "dist/ssr"),
        emptyOutDir: true,
        manifest: false,
        copyPublicDir: false,
        rolldownOptions: { input: path.join(repoRoot, "src/web/entry-server.tsx") },
      },
    },
  },
  build: {
    outDir: path.join(repoRoot, "dist/web"),
    emptyOutDir: true,
    sourcemap: false,
    // The server reads it to hint each page's own chunks (src/server/lib/page-shell.ts).
    manifest: true,
    // Every browser Hearth supports has <link rel="modulepreload">: no polyfill in the entry.
    modulePreload: { polyfill: false },
    // The first page's JavaScript budget (scripts/check-bundle.mjs, docs/decisions/0009-web-bundle-budget.md).
    rolldownOptions: {
      treeshake: {
        // Hearth's own modules do nothing when imported (only main.tsx does), so a page that imports
        // one name from a feature's index does not download the rest of the feature.
        moduleSideEffects: (id: string) => !/\/src\/(web|shared)\/.*\.tsx?$/.test(id) || id.endsWith("main.tsx"),
      },
      // Short names for shared chunks: every import statement and preload list carries them. A
      // page's own chunk keeps its name (user-profile-….js), which logs and tests can tell apart.
      output: {
        codeSplitting: {
          groups: [
            {
              name: "icons",
              test: /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/,
              includeDependenciesRecursively: false,
              entriesAware: true,
              entriesAwareMergeThreshold: 3000,
            },
          ],
        },
        chunkFileNames: (chunk) =>
          chunk.facadeModuleId?.includes("/src/web/app/routes/") ? "assets/[name]-[hash].js" : "assets/c-[hash].js",
      },
    },
  },
  server: {
    proxy: {
      "/api": { target: apiTarget, changeOrigin: false },
      "/media": { target: apiTarget, changeOrigin: false },
      "/dev": { target: apiTarget, changeOrigin: false },
    },
  },
}));
