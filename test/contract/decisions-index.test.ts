import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// docs/decisions/README.md is the index of the records, grouped by area: every record of the
// folder is listed once, every line names a record, and each line sits under an area (the last
// one, "Unsorted (newest)", takes lines added at the end until they are moved to theirs).

const DIR = join(import.meta.dir, "../../docs/decisions");
const UNSORTED = "Unsorted (newest)";

interface Listed {
  file: string;
  area: string | null;
}

/** The records an index lists, each with the `###` area it sits under (null: above every area). */
function listed(index: string): Listed[] {
  const out: Listed[] = [];
  let area: string | null = null;
  for (const line of index.split("\n")) {
    const h = /^### (.+)$/.exec(line);
    if (h) area = h[1]!;
    const m = /^- \[(\d{4})\]\(((\d{4})-[\w-]+\.md)\)/.exec(line);
    if (m) out.push({ file: m[1] === m[3] ? m[2]! : `${m[2]} (shown as ${m[1]})`, area });
  }
  return out;
}

/** What is wrong with `index` for a folder holding `records`, one line each. */
function indexProblems(index: string, records: string[]): string[] {
  const lines = listed(index);
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const l of lines) seen.set(l.file, (seen.get(l.file) ?? 0) + 1);
  for (const r of records) if (!seen.has(r)) problems.push(`not in the index: ${r}`);
  for (const [file, n] of seen) {
    if (!records.includes(file)) problems.push(`no such record: ${file}`);
    if (n > 1) problems.push(`listed ${n} times: ${file}`);
  }
  for (const l of lines) if (l.area === null) problems.push(`under no area: ${l.file}`);
  const areas = [...index.matchAll(/^### (.+)$/gm)].map((m) => m[1]!);
  if (areas.at(-1) !== UNSORTED) problems.push(`the last area is not "${UNSORTED}"`);
  return problems;
}

const RECORDS = readdirSync(DIR).filter((f) => /^\d{4}-.+\.md$/.test(f));

describe("the decisions index", () => {
  test("lists every record once, under its area, and nothing else", () => {
    expect(indexProblems(readFileSync(join(DIR, "README.md"), "utf8"), RECORDS)).toEqual([]);
  });

  test("a record left out, listed twice, under no area, or missing is found; Unsorted comes last", () => {
    const index = [
      "- [0001](0001-a.md) above every area",
      "### Runs",
      "- [0002](0002-b.md) two",
      "- [0002](0002-b.md) two again",
      "- [0004](0004-gone.md) no file",
      "- [0005](0006-f.md) number and file disagree",
      "### Unsorted (newest)",
    ].join("\n");
    expect(indexProblems(index, ["0001-a.md", "0002-b.md", "0003-c.md", "0006-f.md"])).toEqual([
      "not in the index: 0003-c.md",
      "not in the index: 0006-f.md",
      "listed 2 times: 0002-b.md",
      "no such record: 0004-gone.md",
      "no such record: 0006-f.md (shown as 0005)",
      "under no area: 0001-a.md",
    ]);
    expect(indexProblems("### Runs\n### Unsorted (newest)\n### Store\n", [])).toEqual([
      'the last area is not "Unsorted (newest)"',
    ]);
  });
});
