import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Glob } from "bun";

// docs/architecture.md is held true by this test: every path it cites in backticks is a file or
// folder of the tree, every code name in backticks is in the code (not only in a comment), every
// `bun run` script is in package.json and every `@scope/package` a dependency
// or a tool the tests install.

const ROOT = join(import.meta.dir, "../..");
const TREES = ["src", "test", "db", "docs", ".ci"];

/** Backticked spans outside fenced code blocks, whitespace made single. */
function spansOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  return [...new Set([...prose.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\s+/g, " ").trim()))];
}

/** What the spans are said to be, besides paths and code names: MCP's method names. */
const NOT_PATHS = new Set(["tools/list", "tools/call"]);
const PATH = /^[\w.*<>-]*(\/[\w.*<>-]*)+$|^[\w.*<>-]+\.(ts|tsx|md|json|jsonc|sql|html|css)$/;
const NAME = /^\.?[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*(\(\))?$/;

/** A cited path as a pattern over repo-relative paths: a suffix, `*` and `<name>` standing for one part. */
function pathPattern(cited: string): RegExp {
  const body = cited
    .replace(/\/$/, "")
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/<[^>]+>/g, "[^/]+")
    .replace(/\*\*\//g, "(?:.*/)?")
    .replace(/\*/g, "[^/]*");
  return new RegExp(`(?:^|/)${body}$`);
}

interface Tree {
  paths: string[]; // files and folders, repo-relative
  code: string; // the code of src/, test/, db/, .ci/ with comment lines left out
  scripts: Set<string>;
  packages: Set<string>;
}

/** What is wrong with the spans of `markdown` against `tree`, one line each. */
function falsehoods(markdown: string, tree: Tree): string[] {
  const out: string[] = [];
  const inCode = (word: string) => new RegExp(`(?<![\\w$])${word.replace(/\$/g, "\\$")}(?![\\w$])`).test(tree.code);
  for (const span of spansOf(markdown)) {
    if (NOT_PATHS.has(span)) continue;
    const script = /^bun run ([\w:-]+)/.exec(span);
    const pkg = /^(@[\w-]+\/[\w.-]+)/.exec(span);
    if (script) {
      if (!tree.scripts.has(script[1]!)) out.push(`no script: ${span}`);
    } else if (pkg) {
      // A dependency, or a tool the tests install apart (test/helpers/openapi-tools.ts).
      if (!tree.packages.has(pkg[1]!) && !tree.code.includes(`"${pkg[1]}`)) out.push(`no such package: ${span}`);
    } else if (PATH.test(span) && !span.startsWith("/")) {
      const re = pathPattern(span);
      if (!tree.paths.some((p) => re.test(p))) out.push(`no such file or folder: ${span}`);
    } else if (NAME.test(span)) {
      for (const word of span.replace(/\(\)$/, "").split(".").filter(Boolean))
        if (!inCode(word)) out.push(`not in the code: ${span}`);
    }
  }
  return out;
}

function readTree(): Tree {
  const paths = new Set<string>();
  for (const t of TREES)
    for (const f of new Glob(`${t}/**/*`).scanSync({ cwd: ROOT, dot: true })) {
      const parts = f.split("/");
      for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join("/"));
    }
  for (const f of new Glob("*").scanSync({ cwd: ROOT, dot: true })) paths.add(f);
  const code = [...paths]
    // This file's own examples are not the code.
    .filter((p) => /^(src|test|db|\.ci)\/.*\.(ts|tsx|sql|html)$/.test(p) && join(ROOT, p) !== import.meta.path)
    .map((p) => readFileSync(join(ROOT, p), "utf8"))
    .join("\n")
    .replace(/^\s*(\/\/|\/\*|\*|--).*$/gm, "")
    .replace(/\s\/\/ .*$/gm, "");
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, Record<string, string>>;
  return {
    paths: [...paths],
    code,
    scripts: new Set(Object.keys(pkg.scripts ?? {})),
    packages: new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]),
  };
}

describe("docs/architecture.md", () => {
  const tree = readTree();

  test("every path, name, script and package it cites exists", () => {
    expect(falsehoods(readFileSync(join(ROOT, "docs/architecture.md"), "utf8"), tree)).toEqual([]);
  });

  test("a name gone from the code, a missing path, script or package are found", () => {
    const doc = [
      "Build it in `rankerOf` (`search-corpus.ts`), then `createRanker`; see `src/nowhere.ts`, `test/search/`,",
      "`src/research/search/<name>.ts`, `*/title-cuts.ts`, `bun run nope`, `bun run lint`, `@orama/nothing`.",
      "`store.runs.accept` and `follow.result()` hold; `/healthz` and `tools/list` are not paths.",
      "```text\n`ignored` in a fenced block\n```",
    ].join("\n");
    expect(falsehoods(doc, tree)).toEqual([
      "not in the code: rankerOf",
      "no such file or folder: src/nowhere.ts",
      "no such file or folder: test/search/",
      "no script: bun run nope",
      "no such package: @orama/nothing",
    ]);
  });
});
