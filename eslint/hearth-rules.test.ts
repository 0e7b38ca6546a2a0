// Each of Hearth's lint rules fails on a deliberate violation, through the project's own
// eslint.config.js (so a rule that is written but not switched on fails here too).
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: new URL("..", import.meta.url).pathname });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

const cases: { name: string; file: string; code: string; rule: string }[] = [
  {
    name: "web imports server",
    file: "src/web/features/posts/components/x-card.tsx",
    code: 'import { loadConfig } from "#server/config";\nexport const x = loadConfig;\n',
    rule: "hearth/boundaries",
  },
  {
    name: "web imports server by a relative path",
    file: "src/web/lib/x-thing.ts",
    code: 'import { loadConfig } from "../../server/config";\nexport const x = loadConfig;\n',
    rule: "hearth/boundaries",
  },
  {
    name: "shared imports web",
    file: "src/shared/x-rule.ts",
    code: 'import { api } from "#web/lib/api";\nexport const x = api;\n',
    rule: "hearth/boundaries",
  },
  {
    name: "shared imports server",
    file: "src/shared/x-rule.ts",
    code: 'import { loadConfig } from "#server/config";\nexport const x = loadConfig;\n',
    rule: "hearth/boundaries",
  },
  {
    name: "a web feature reaches inside another feature",
    file: "src/web/features/comments/components/x-list.tsx",
    code: 'import { PostCard } from "#web/features/posts/components/post-card";\nexport const x = PostCard;\n',
    rule: "hearth/boundaries",
  },
  {
    name: "a server feature reaches inside another feature",
    file: "src/server/features/members/x.service.ts",
    code: 'import { toPostDto } from "#server/features/posts/posts.service";\nexport const x = toPostDto;\n',
    rule: "hearth/boundaries",
  },
  {
    name: "a relative import climbs out of its feature",
    file: "src/web/features/comments/components/x-list.tsx",
    code: 'import { api } from "../../../lib/api";\nexport const x = api;\n',
    rule: "hearth/boundaries",
  },
  {
    name: "process.env outside config.ts",
    file: "src/server/lib/x-thing.ts",
    code: "export const port = process.env.PORT;\n",
    rule: "no-restricted-properties",
  },
  {
    name: "a file name that is not kebab-case",
    file: "src/web/components/PostThing.tsx",
    code: "export const x = 1;\n",
    rule: "hearth/kebab-case-files",
  },
];

describe("Hearth's lint rules", () => {
  for (const c of cases) {
    it(`fails on ${c.name}`, async () => {
      expect(await ruleIds(c.file, c.code)).toContain(c.rule);
    });
  }

  it("passes the allowed forms: a feature's index, a dynamic import inside a feature, aliases, config.ts", async () => {
    const allowed: [string, string][] = [
      [
        "src/web/features/comments/components/x-list.tsx",
        'import { PostCard } from "#web/features/posts";\nimport { api } from "#web/lib/api";\nexport const x = [PostCard, api];\n',
      ],
      [
        "src/web/features/community/components/x-home.tsx",
        'export const load = () => import("#web/features/members/components/members-tab");\n',
      ],
      [
        "src/server/features/members/x.service.ts",
        'import { posts } from "#server/features/posts/index";\nimport { a } from "./members.service";\nexport const x = [posts, a];\n',
      ],
      ["src/server/config.ts", "export const port = process.env.PORT;\n"],
    ];
    for (const [file, code] of allowed) {
      const ids = (await ruleIds(file, code)).filter(
        (id) => id.startsWith("hearth/") || id === "no-restricted-properties",
      );
      expect(ids, file).toEqual([]);
    }
  });
});
