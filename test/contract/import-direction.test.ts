import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize, relative } from "node:path";

// The import direction is drawn and enforced in biome.jsonc (noRestrictedImports per folder,
// noImportCycles). These tests prove the rules bite and that the tree keeps to them.

const ROOT = join(import.meta.dir, "../..");
const BIOME = join(ROOT, "node_modules/.bin/biome");
const CONFIG = readFileSync(join(ROOT, "biome.jsonc"), "utf8");

interface Diagnostic {
  category: string;
  location: { path: string };
}

/** Lints `files` (path → text) in a scratch folder under the repository's own biome.jsonc. */
function lintScratch(files: Record<string, string>): { exitCode: number; diagnostics: Diagnostic[] } {
  const dir = mkdtempSync(join(tmpdir(), "rq-direction-"));
  try {
    writeFileSync(join(dir, "biome.jsonc"), CONFIG);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const run = Bun.spawnSync([BIOME, "lint", "--vcs-enabled=false", "--reporter=json", "src"], { cwd: dir });
    const out = run.stdout.toString();
    const report = JSON.parse(out.slice(out.indexOf("{"))) as { diagnostics: Diagnostic[] };
    return { exitCode: run.exitCode, diagnostics: report.diagnostics };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SRC_FOLDERS = readdirSync(join(ROOT, "src"), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

describe("the import direction", () => {
  test("lint fails on an import against the direction, and on a cycle; an import with it passes", () => {
    const { exitCode, diagnostics } = lintScratch({
      "src/runs/service.ts": 'import { ok } from "../store/types.ts";\nexport const run = ok;\n',
      "src/store/types.ts": "export const ok = 1;\n",
      // The store importing a feature: against the direction.
      "src/store/probe.ts": 'import { run } from "../runs/service.ts";\nexport const probe = run;\n',
      // The HTTP kit importing the server, from a nested path.
      "src/http/deep/probe.ts": 'import { app } from "../../server/app.ts";\nexport const probe = app;\n',
      "src/server/app.ts": "export const app = 1;\n",
      // Two files importing each other's values.
      "src/util/a.ts": 'import { b } from "./b.ts";\nexport const a = () => b;\n',
      "src/util/b.ts": 'import { a } from "./a.ts";\nexport const b = () => a;\n',
    });
    const at = (category: string) =>
      diagnostics
        .filter((d) => d.category === category)
        .map((d) => d.location.path)
        .sort();
    expect(exitCode).not.toBe(0);
    expect(at("lint/style/noRestrictedImports")).toEqual(["src/http/deep/probe.ts", "src/store/probe.ts"]);
    expect(at("lint/suspicious/noImportCycles")).toEqual(["src/util/a.ts", "src/util/b.ts"]);
    expect(diagnostics.filter((d) => d.location.path === "src/runs/service.ts")).toEqual([]);
  });

  test("every folder of src/ has its direction rule in biome.jsonc", () => {
    const missing = SRC_FOLDERS.filter((f) => !CONFIG.includes(`"src/${f}/**"`));
    expect(missing).toEqual([]);
  });

  test("no two folders of src/ import each other", async () => {
    const edges = new Map<string, string>(); // "from → to" → one importing file, for the message
    const spec = /(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;
    for await (const file of new Bun.Glob("src/**/*.{ts,tsx}").scan({ cwd: ROOT })) {
      const from = file.split("/")[1]!;
      for (const m of readFileSync(join(ROOT, file), "utf8").matchAll(spec)) {
        const target = relative(join(ROOT, "src"), normalize(join(ROOT, dirname(file), m[1]!)));
        const to = target.split("/")[0]!;
        if (to !== from && !target.startsWith("..") && target.includes("/")) edges.set(`${from} → ${to}`, file);
      }
    }
    const mutual: string[] = [];
    for (const edge of edges.keys()) {
      const [a, b] = edge.split(" → ") as [string, string];
      if (a < b && edges.has(`${b} → ${a}`))
        mutual.push(`${a} ↔ ${b} (${edges.get(edge)}, ${edges.get(`${b} → ${a}`)})`);
    }
    expect(mutual).toEqual([]);
  });
});
