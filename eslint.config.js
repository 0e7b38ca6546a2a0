import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import hearth from "./eslint/hearth-rules.js";

export default tseslint.config(
  {
    ignores: [
      "dist",
      "node_modules",
      "data",
      ".tmp",
      ".node24",
      "test-results",
      "playwright-report",
      "src/web/lib/api-types.ts",
      "src/server/db/migrations",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser }, ecmaVersion: 2023, sourceType: "module" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["src/web/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // The layering of docs/architecture.md, enforced (eslint/hearth-rules.js; each rule is shown to
  // fail on a deliberate violation in eslint/hearth-rules.test.ts).
  {
    // Tests may reach into any module they test (a server test renders web components, say).
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/**/*.test.ts"],
    plugins: { hearth },
    rules: { "hearth/boundaries": "error" },
  },
  {
    files: ["src/**/*.{ts,tsx,js,mjs}", "e2e/**/*.ts", "scripts/**/*.{ts,mjs}", "bench/**/*.ts", "eslint/**/*.js"],
    plugins: { hearth },
    rules: { "hearth/kebab-case-files": "error" },
  },
  {
    // Configuration is read in one place: the server's config.ts. Tests and their helpers set up
    // child processes' environments and may read it.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/server/config.ts", "src/**/*.test.ts", "src/server/test/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration in src/server/config.ts and pass it in." },
      ],
    },
  },
);
