// Hearth's own lint rules: the layering that docs/architecture.md describes, checked on every
// `npm run lint` instead of remembered. Each rule works on paths alone (no file system), so a
// violation is reported the same way in an editor, in CI and in eslint/hearth-rules.test.ts.
import path from "node:path";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const AREAS = ["shared", "server", "web"];

/** The repository-relative path of the linted file, with forward slashes. */
function relFile(context) {
  return path
    .relative(ROOT, context.physicalFilename ?? context.filename)
    .split(path.sep)
    .join("/");
}

/** Where an import specifier points, repository-relative, or null for a package. */
function resolveSpecifier(fromRel, spec) {
  const alias = /^#(shared|server|web)\/(.*)$/.exec(spec);
  if (alias) return path.posix.join("src", alias[1], alias[2]);
  if (spec.startsWith("./") || spec.startsWith("../"))
    return path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), spec));
  return null;
}

const areaOf = (rel) => {
  const m = /^src\/([^/]+)\//.exec(rel);
  return m && AREAS.includes(m[1]) ? m[1] : null;
};
/** `src/web/features/posts` for anything inside that feature, else null. */
const featureOf = (rel) => {
  const m = /^(src\/(?:web|server)\/features\/[^/]+)(?:\/|$)/.exec(rel);
  return m ? m[1] : null;
};

function importSources(context, check) {
  const visit = (node, dynamic) => {
    const source = node.source;
    if (!source || source.type !== "Literal" || typeof source.value !== "string") return;
    check(source, source.value, dynamic);
  };
  return {
    ImportDeclaration: (node) => visit(node, false),
    ExportNamedDeclaration: (node) => visit(node, false),
    ExportAllDeclaration: (node) => visit(node, false),
    ImportExpression: (node) => visit(node, true),
  };
}

const boundaries = {
  meta: {
    type: "problem",
    docs: { description: "Keeps web, server and shared apart, and features behind their index.ts" },
    messages: {
      webImportsServer: "The web app never imports server code ({{target}}): share it through src/shared.",
      serverImportsWeb: "The server never imports web code ({{target}}).",
      sharedImportsOther: "src/shared imports neither server nor web code ({{target}}).",
      deepFeatureImport:
        "Import another feature through its index.ts ('{{index}}'), not '{{spec}}'. A dynamic import() for code splitting may name a module inside it.",
      relativeLeavesUnit: "'{{spec}}' leaves this {{unit}}: use the {{alias}} alias.",
    },
    schema: [],
  },
  create(context) {
    const from = relFile(context);
    const fromArea = areaOf(from);
    if (!fromArea) return {};
    const fromFeature = featureOf(from);
    return importSources(context, (node, spec, dynamic) => {
      const target = resolveSpecifier(from, spec);
      if (!target) return;
      const targetArea = areaOf(target + "/");
      const data = { target, spec };
      if (fromArea === "web" && targetArea === "server")
        return context.report({ node, messageId: "webImportsServer", data });
      if (fromArea === "server" && targetArea === "web")
        return context.report({ node, messageId: "serverImportsWeb", data });
      if (fromArea === "shared" && (targetArea === "web" || targetArea === "server"))
        return context.report({ node, messageId: "sharedImportsOther", data });

      const targetFeature = featureOf(target);
      if (fromFeature && targetFeature && targetFeature !== fromFeature && !dynamic) {
        const isIndex = target === targetFeature || target === `${targetFeature}/index`;
        if (!isIndex) {
          const index = `#${targetArea}/${targetFeature.replace(/^src\/[^/]+\//, "")}${targetArea === "server" ? "/index" : ""}`;
          return context.report({ node, messageId: "deepFeatureImport", data: { spec, index } });
        }
      }
      if (spec.startsWith(".")) {
        const unit = fromFeature ?? path.posix.dirname(from);
        if (target !== unit && !target.startsWith(unit + "/") && targetArea) {
          context.report({
            node,
            messageId: "relativeLeavesUnit",
            data: { spec, unit: fromFeature ? "feature" : "folder", alias: `#${targetArea}/…` },
          });
        }
      }
    });
  },
};

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*$/;

const kebabCaseFiles = {
  meta: {
    type: "suggestion",
    docs: { description: "File names are kebab-case (my-thing.tsx, posts.routes.ts)" },
    messages: { notKebab: "File name '{{name}}' is not kebab-case (lower-case words joined by '-')." },
    schema: [],
  },
  create(context) {
    const name = path.basename(context.physicalFilename ?? context.filename);
    return {
      Program(node) {
        if (!KEBAB.test(name)) context.report({ node, messageId: "notKebab", data: { name } });
      },
    };
  },
};

export default {
  meta: { name: "hearth" },
  rules: { boundaries, "kebab-case-files": kebabCaseFiles },
};
