// Shows that the authorization matrix (src/server/authz) catches a removed permission check: each
// mutation below takes one check out of the server's source, weakens it or moves it after the write
// (a textual patch), runs the matrix and expects it to FAIL; then the file is restored. Prints
// "mutation → failed cells" and which of the matrix's assertions caught each.
//
//   node scripts/authz-mutation.mjs            the working tree as it is
//   node scripts/authz-mutation.mjs --head     the last commit instead
//   node scripts/authz-mutation.mjs --only 3   one mutation (by number)
//
// The mutations are applied in a temporary copy of the project (node_modules linked), never in
// this checkout: others may be running tests or committing here meanwhile, and a copy cannot be
// left mutated by an interrupted run. Each file is still restored after its mutation (try/finally)
// and checked byte for byte at the end; the checkout's own files are checked unchanged too.
// Takes about 40 s per mutation (not part of npm test).
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MATRIX = "src/server/authz/matrix.test.ts";

/** One removed, weakened or misplaced check each: the file, and [exact text, what replaces it] pairs. */
const MUTATIONS = [
  {
    name: "role changes: the members-table hierarchy is not checked",
    file: "src/server/features/members/members.service.ts",
    edits: [[`    if (refusal) throw new AppError("FORBIDDEN", REFUSAL_MESSAGES[refusal]);\n`, ""]],
  },
  {
    name: "community settings: manage_settings is not checked",
    file: "src/server/features/communities/communities.service.ts",
    edits: [[`  requirePermission(role, "manage_settings");\n  const nextType`, "  const nextType"]],
  },
  {
    name: "private communities are open to non-members",
    file: "src/server/lib/community-access.ts",
    edits: [[`if (community.visibility === "private" && !role) {`, "if (false) {"]],
  },
  {
    name: "post visibility (members only, admins only) is not checked",
    file: "src/server/lib/post-access.ts",
    edits: [["  if (!visibleTo(role).includes(r.visibility)) throw postNotFound();\n", ""]],
  },
  {
    name: "deleting someone else's post: delete_any_post is not checked",
    file: "src/server/features/posts/posts.service.ts",
    edits: [[`if (!own && !can(access.role, "delete_any_post")) throw`, "if (false) throw"]],
  },
  {
    name: "draft courses are shown to everyone",
    file: "src/server/features/courses/courses.access.ts",
    edits: [[`  if (r.status !== "published" && !isStaff(role)) throw courseNotFound();\n`, ""]],
  },
  {
    name: "the permission table lets members moderate",
    file: "src/shared/roles.ts",
    edits: [
      [
        `moderate_posts: ["owner", "admin", "moderator"],`,
        `moderate_posts: ["owner", "admin", "moderator", "member"],`,
      ],
    ],
  },
  {
    name: "a ban does not stop joining",
    file: "src/server/lib/community-access.ts",
    edits: [
      [
        '  if (await isBanned(db, input.community.id, input.userId)) throw new AppError("FORBIDDEN", MSG.bannedFromCommunity);\n',
        "",
      ],
    ],
  },
  {
    name: "notifications of a private community reach non-members",
    file: "src/server/lib/notifications.ts",
    edits: [["AND (rc.visibility <> 'private' OR rm.role IS NOT NULL)", "AND true"]],
  },
  {
    name: "course uploads need only create_post",
    file: "src/server/features/uploads/uploads.service.ts",
    edits: [[`courses: "manage_courses"`, `courses: "create_post"`]],
  },
  {
    name: "editing one's own comment ignores the role",
    file: "src/server/features/comments/comments.service.ts",
    edits: [
      [
        `if (comment.authorId !== viewer.id || !can(access.role, "edit_own_post")) {`,
        "if (comment.authorId !== viewer.id) {",
      ],
    ],
  },
  {
    name: "a private community's media are served to anyone",
    file: "src/server/features/media/media.service.ts",
    edits: [[`  if (r.c_visibility === "private" && !role && !opts.ignoreCommunityVisibility) return "denied";\n`, ""]],
  },
  {
    name: "community settings: the permission is checked only after saving",
    file: "src/server/features/communities/communities.service.ts",
    edits: [
      [`  requirePermission(role, "manage_settings");\n  const nextType`, "  const nextType"],
      [
        "  // Other processes hear of it from the database;",
        `  requirePermission(role, "manage_settings");\n  // Other processes hear of it from the database;`,
      ],
    ],
  },
];

const args = process.argv.slice(2);
const fromHead = args.includes("--head");
const onlyIndex = args.indexOf("--only");
const only = onlyIndex >= 0 ? Number(args[onlyIndex + 1]) : null;
const chosen = MUTATIONS.map((m, i) => ({ ...m, n: i + 1 })).filter((m) => only === null || m.n === only);

const sha = (file) => (existsSync(file) ? createHash("sha256").update(readFileSync(file)).digest("hex") : "missing");
const git = (...a) => execFileSync("git", a, { cwd: root, encoding: "utf8" });

/** A copy of the project: the working tree's files (or the last commit's), node_modules linked. */
function makeWorkspace() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hearth-authz-mutation-"));
  if (fromHead) {
    execFileSync("sh", ["-c", `git archive HEAD | tar -x -C "${dir}"`], { cwd: root });
  } else {
    const files = git("ls-files", "-z", "-c", "-o", "--exclude-standard").split("\0").filter(Boolean);
    for (const f of files) {
      const from = path.join(root, f);
      if (!existsSync(from)) continue;
      mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      cpSync(from, path.join(dir, f));
    }
  }
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

/** Runs the matrix in the workspace; answers whether it passed and the names of the failed cells. */
function runMatrix(dir) {
  const report = path.join(dir, "authz-report.json");
  rmSync(report, { force: true });
  const started = Date.now();
  const res = spawnSync(process.execPath, [path.join(dir, "node_modules/vitest/vitest.mjs"), "run", MATRIX], {
    cwd: dir,
    env: { ...process.env, VITEST_JSON: report, FORCE_COLOR: "0" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (!existsSync(report)) return { passed: false, failed: null, seconds, output: `${res.stdout}\n${res.stderr}` };
  const json = JSON.parse(readFileSync(report, "utf8"));
  const failures = json.testResults.flatMap((file) => file.assertionResults.filter((a) => a.status === "failed"));
  const failed = failures.map((a) => `${a.ancestorTitles.at(-1)} › ${a.title}`);
  // Which assertion caught it: "status", "message", "a refused request changed something"…
  const reasons = {};
  for (const a of failures) {
    const line = (a.failureMessages?.[0] ?? "").split("\n")[0];
    // "<cell>: <what>: expected…" from the matrix's own checks, else the allowed-answer check's label.
    const reason = (
      /community\): ([^:(]+)/.exec(line)?.[1] ??
      /^(?:AssertionError: )?([^:]+)/.exec(line)?.[1] ??
      "?"
    ).trim();
    reasons[reason] = (reasons[reason] ?? 0) + 1;
  }
  return { passed: res.status === 0 && failed.length === 0, failed, reasons, total: json.numTotalTests, seconds };
}

const watched = [...new Set(MUTATIONS.map((m) => m.file))];
const checkoutBefore = Object.fromEntries(watched.map((f) => [f, sha(path.join(root, f))]));
const dir = makeWorkspace();
const results = [];
let exitCode = 0;
try {
  console.log(
    `Workspace ${dir} (${fromHead ? `commit ${git("rev-parse", "--short", "HEAD").trim()}` : "working tree"})`,
  );
  const baseline = runMatrix(dir);
  if (!baseline.passed) {
    console.error(`The matrix does not pass without mutations (${baseline.failed?.length ?? "no report"} failed):`);
    console.error((baseline.failed ?? []).slice(0, 20).join("\n") || baseline.output?.slice(-4000));
    process.exitCode = 1;
  } else {
    console.log(`Baseline: ${baseline.total} cells pass (${baseline.seconds} s)\n`);
    for (const m of chosen) {
      const file = path.join(dir, m.file);
      const original = readFileSync(file, "utf8");
      const counts = m.edits.map(([find]) => original.split(find).length - 1);
      if (counts.some((n) => n !== 1)) {
        results.push({ ...m, error: `a text to replace occurs ${counts.join(", ")} times (update the script)` });
        exitCode = 1;
        continue;
      }
      let run;
      try {
        writeFileSync(
          file,
          m.edits.reduce((text, [find, replace]) => text.replace(find, () => replace), original),
        );
        run = runMatrix(dir);
      } finally {
        writeFileSync(file, original);
      }
      if (readFileSync(file, "utf8") !== original) throw new Error(`${m.file} was not restored`);
      const caught = run.failed !== null && run.failed.length > 0;
      if (!caught) exitCode = 1;
      results.push({ ...m, failed: run.failed, reasons: run.reasons, seconds: run.seconds, caught });
      console.log(
        `${m.n}. ${m.name}: ${caught ? `${run.failed.length} failed cells` : "NOT CAUGHT"} (${run.seconds} s)`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (results.length) {
  console.log("\nmutation → failed cells\n");
  console.log("| # | Mutation (file) | Failed cells | Caught by | Some of them |");
  console.log("|---|---|---|---|---|");
  for (const r of results) {
    const cells = r.error ?? (r.failed === null ? "no report (crash)" : String(r.failed.length));
    const by = Object.entries(r.reasons ?? {})
      .map(([reason, n]) => `${reason} (${n})`)
      .join(", ");
    const some = (r.failed ?? []).slice(0, 3).join("; ");
    console.log(`| ${r.n} | ${r.name} (\`${r.file}\`) | ${cells} | ${by} | ${some.replaceAll("|", "\\|")} |`);
  }
}

const changed = watched.filter((f) => sha(path.join(root, f)) !== checkoutBefore[f]);
if (changed.length) {
  // Someone else edited these meanwhile: this script never writes to the checkout.
  console.log(`\nNote: changed in the checkout during the run (not by this script): ${changed.join(", ")}`);
}
const diff = git("diff", "--stat", "HEAD", "--", ...watched).trim();
console.log(
  `\nCheckout: the mutated files were only ever changed in the copy; git diff of them here: ${diff || "clean"}`,
);
if (exitCode) {
  console.error("\nSome mutation was not caught (or could not be applied): the matrix misses a check.");
  process.exitCode = exitCode;
}
