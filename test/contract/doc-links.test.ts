import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Glob } from "bun";

// Code cites documents in one strict syntax (docs/architecture.md "References from code"):
// README "Heading" with a heading of README.md, or a path under docs/ (optionally followed by
// "Heading" of that file). Documents outside this repository are never cited. Markdown links
// in README.md and docs/ reach an existing file and heading.

const ROOT = resolve(import.meta.dir, "../..");
const CODE = ["src/**/*.{ts,tsx,js,css,html,sql}", "test/**/*.{ts,tsx,js,sql}", "db/**/*.{ts,sql}", ".ci/*"];
const MARKDOWN = ["README.md", "docs/**/*.md"];

const files = (patterns: string[]): string[] =>
  patterns.flatMap((p) => [...new Glob(p).scanSync({ cwd: ROOT, dot: true })]).sort();

/** Heading texts of a Markdown document, fenced code blocks left out (a `# comment` there is no heading). */
function headings(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (f[1] === fence) fence = null;
      continue;
    }
    const h = fence === null ? /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line) : null;
    if (h) out.push(h[1]!);
  }
  return out;
}

/** The anchors GitHub gives a document's headings (`## Safe retries` → `safe-retries`, repeats numbered). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(markdown)) {
    const base = h
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

const read = (rel: string) => readFileSync(join(ROOT, rel), "utf8");
const headingsOf = (rel: string): Set<string> | null =>
  existsSync(join(ROOT, rel)) && statSync(join(ROOT, rel)).isFile() ? new Set(headings(read(rel))) : null;

// A quoted heading may wrap onto the next comment line: line breaks and comment markers count as one space.
const WRAP = String.raw`(?:\s|\*|//|#|--)*`;
const README_REF = new RegExp(String.raw`\bREADME\b(?!\.md)(\s${WRAP}\\?"([^"\\]+)\\?")?`, "g");
const DOC_REF = new RegExp(String.raw`(?<![\w./-])(docs/[\w./-]*?\.md)(\s${WRAP}\\?"([^"\\]+)\\?")?`, "g");
const OUTSIDE = [
  { re: /\b(?:CONTRACT|SPEC)\b/g, why: "cites a document outside this repository" },
  { re: /\bissues?\s+#?\d+/gi, why: "cites an issue: say what it decided, or point at its decision record" },
];
const oneLine = (s: string) => s.replace(new RegExp(String.raw`\s*\n${WRAP}`, "g"), " ").trim();

/**
 * What is wrong with the document references in one file's text. Code is held to the syntax
 * (`strict`); Markdown prose may say "the README" or name an outside document, but what it
 * cites in the syntax must exist.
 */
function referenceProblems(text: string, readme: Set<string>, strict = true, docHeadings = headingsOf): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(README_REF)) {
    if (m[2] !== undefined) {
      if (!readme.has(oneLine(m[2]))) problems.push(`README has no heading "${oneLine(m[2])}"`);
    } else if (strict) problems.push(`README named without a section (write README "Heading"): ${m[0]}`);
  }
  for (const m of text.matchAll(DOC_REF)) {
    const h = docHeadings(m[1]!);
    if (!h) problems.push(`no such file: ${m[1]}`);
    else if (m[3] !== undefined && !h.has(oneLine(m[3]))) problems.push(`${m[1]} has no heading "${oneLine(m[3])}"`);
  }
  if (strict) for (const { re, why } of OUTSIDE) for (const m of text.matchAll(re)) problems.push(`${why}: ${m[0]}`);
  return problems;
}

/** What is wrong with the relative links of one Markdown file (`rel`, from the repository's root). */
function linkProblems(markdown: string, rel: string): string[] {
  const problems: string[] = [];
  const prose = markdown.replace(/^\s*(```|~~~)[\s\S]*?^\s*\1/gm, "").replace(/`[^`\n]*`/g, "");
  for (const m of prose.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z]+:/i.test(target)) continue;
    const [path = "", anchor] = target.split("#", 2);
    const file = path ? relative(ROOT, resolve(ROOT, dirname(rel), path)) : rel;
    if (!existsSync(join(ROOT, file))) {
      problems.push(`${rel}: link to a missing file: ${target}`);
      continue;
    }
    if (anchor !== undefined && (!file.endsWith(".md") || !anchors(read(file)).has(anchor)))
      problems.push(`${rel}: link to a missing heading: ${target}`);
  }
  return problems;
}

const README = new Set(headings(read("README.md")));

describe("the checks themselves", () => {
  test("a reference to a missing README section, an unquoted README or an outside document fails", () => {
    const readme = new Set(["Safe retries", "The API"]);
    expect(referenceProblems('// README "Safe retries"', readme)).toEqual([]);
    expect(referenceProblems('/** first (README\n * "The API"). */', readme)).toEqual([]);
    expect(referenceProblems('"see (README \\"Safe retries\\")"', readme)).toEqual([]);
    expect(referenceProblems('// README "Operations"', readme)).toHaveLength(1);
    expect(referenceProblems("// see the README's table", readme)).toHaveLength(1);
    expect(referenceProblems("// README: 'Safe retries'", readme)).toHaveLength(1);
    expect(referenceProblems(`// ${["CONTRACT", "§5"].join(" ")}: credentials first`, readme)).toHaveLength(1);
    expect(referenceProblems(`// ${["SPEC", "§6.3"].join(" ")}`, readme)).toHaveLength(1);
    expect(referenceProblems(`// rules of ${["issue", "15"].join(" ")}`, readme)).toHaveLength(1);
    expect(referenceProblems("// a path: ../shared/data/README.md", readme)).toEqual([]);
    // Prose is not held to the syntax, but a quoted section must still exist.
    expect(referenceProblems("the README's table, as SPEC says", readme, false)).toEqual([]);
    expect(referenceProblems('prose may say "the README" or "a README"', readme, false)).toEqual([]);
    expect(referenceProblems('README "Operations"', readme, false)).toHaveLength(1);
  });

  test("a reference to a missing docs/ file or heading fails", () => {
    expect(referenceProblems("// docs/architecture.md", README)).toEqual([]);
    expect(referenceProblems('// docs/architecture.md "Import direction"', README)).toEqual([]);
    expect(referenceProblems("// docs/decisions/9999-no-such-record.md", README)).toHaveLength(1);
    expect(referenceProblems('// docs/architecture.md "No such heading"', README)).toHaveLength(1);
    expect(referenceProblems("// https://console.groq.com/docs/rate-limits.md", README)).toEqual([]);
  });

  test("a Markdown link to a missing file or heading fails", () => {
    expect(linkProblems("[a](docs/architecture.md#import-direction) [b](#safe-retries)", "README.md")).toEqual([]);
    expect(linkProblems("[c](https://example.com/x) [d](docs/decisions/README.md)", "README.md")).toEqual([]);
    expect(linkProblems("[e](docs/nope.md)", "README.md")).toHaveLength(1);
    expect(linkProblems("[f](#no-such-heading)", "README.md")).toHaveLength(1);
    expect(linkProblems("```\n[g](nope.md)\n```", "README.md")).toEqual([]);
    expect(linkProblems("`[h](nope.md)` in code", "README.md")).toEqual([]);
  });

  test("headings in fenced code are not headings", () => {
    expect(headings("# A\n```ini\n# B\n```\n## C")).toEqual(["A", "C"]);
    expect([...anchors("## Sign-in (OpenID Connect)\n## `ask` and collections\n## A\n## A")]).toEqual([
      "sign-in-openid-connect",
      "ask-and-collections",
      "a",
      "a-1",
    ]);
  });
});

describe("the repository", () => {
  test("every comment of src/, test/, db/ and .ci/ cites an existing README section or docs/ file", () => {
    const ci = readdirSync(join(ROOT, ".ci")).map((f) => `.ci/${f}`);
    // This file is left out: its synthetic cases are wrong on purpose.
    const checked = [...files(CODE), ...ci].filter((f) => f !== "test/contract/doc-links.test.ts");
    expect(checked.length).toBeGreaterThan(300);
    const problems = checked.flatMap((f) => referenceProblems(read(f), README).map((p) => `${f}: ${p}`));
    expect(problems).toEqual([]);
  });

  test("every relative link and every cited section of README.md and docs/ exists", () => {
    const checked = files(MARKDOWN);
    expect(checked).toContain("docs/architecture.md");
    expect(checked.flatMap((f) => linkProblems(read(f), f))).toEqual([]);
    // The docs cite the README and each other in the same syntax as the code.
    expect(checked.flatMap((f) => referenceProblems(read(f), README, false).map((p) => `${f}: ${p}`))).toEqual([]);
  });
});
