import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { importsOf, names, refusals, scanTree, unitOf } from "../../.ci/fence.ts";
import { LAYERS } from "../../.ci/layers.ts";

// The import direction is one layer table (.ci/layers.ts) and one fence (.ci/fence.ts) that refuses
// every import the table does not name; Biome keeps the cycle rule
// (docs/decisions/0130-a-fence-that-refuses-by-default.md). These tests prove both bite and that
// the tree keeps to them.

const ROOT = join(import.meta.dir, "../..");
const BIOME = join(ROOT, "node_modules/.bin/biome");

/** Writes `files` (path → text) into a scratch tree, runs `use` on it, removes it. */
function withScratch<T>(files: Record<string, string>, use: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "rq-direction-"));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The fence as `bun run lint` runs it, on a scratch tree: its exit code, the files it names, its lines. */
function fenceScratch(files: Record<string, string>): { exitCode: number; refused: string[]; lines: string[] } {
  return withScratch(files, (dir) => {
    const run = Bun.spawnSync([process.execPath, join(ROOT, ".ci/fence.ts"), dir]);
    const lines = run.stderr
      .toString()
      .split("\n")
      .filter((l) => l.startsWith("src/"));
    return { exitCode: run.exitCode, refused: lines.map((l) => l.split(" ")[0]!), lines };
  });
}

const imp = (to: string) => `import { x } from "${to}";\nexport const y = x;\n`;

describe("the layer table", () => {
  test("the tree keeps to it", () => {
    expect(refusals(scanTree(ROOT))).toEqual([]);
  });

  test("every folder of src/ has its row", () => {
    const folders = readdirSync(join(ROOT, "src"), { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.map((f) => f.name).filter((f) => !LAYERS.some((l) => l.unit === `src/${f}`))).toEqual([]);
  });

  test("a unit names only units above it in the table, and only what exists", () => {
    const wrong: string[] = [];
    LAYERS.forEach((layer, at) => {
      for (const entry of [...layer.may, ...(layer.never ?? [])]) {
        const base = entry.replace(/\/\*\*$/, "");
        if (!existsSync(join(ROOT, base))) wrong.push(`${layer.unit}: ${entry} does not exist`);
        if (!base.startsWith("src/") || layer.never?.includes(entry)) continue;
        const named = LAYERS.map((l, i) => [l, i] as const).filter(([l]) => names(entry, l.unit));
        if (named.length === 0) wrong.push(`${layer.unit}: ${entry} is no unit`);
        for (const [l, i] of named) if (i >= at) wrong.push(`${layer.unit} → ${l.unit}: not above it`);
      }
    });
    expect(wrong).toEqual([]);
  });

  test("a new folder is refused, importing or imported, and fails the lint", () => {
    const { exitCode, refused, lines } = fenceScratch({
      // The probe of decision 0069: the contract importing a folder nobody listed.
      "src/contract/x.ts": imp("../billing/y.ts"),
      "src/billing/y.ts": imp("../util/z.ts"),
      "src/util/z.ts": "export const x = 1;\n",
    });
    expect(exitCode).toBe(1);
    expect(refused.sort()).toEqual(["src/billing/y.ts", "src/contract/x.ts"]);
    expect(lines.every((l) => l.includes("folder is not in the layer table"))).toBe(true);
  });

  test("an import against the direction is refused; one with it passes", () => {
    const { exitCode, refused } = fenceScratch({
      "src/runs/service.ts": imp("../store/types.ts"),
      "src/store/types.ts": "export const x = 1;\n",
      "src/store/probe.ts": imp("../runs/service.ts"),
      "src/http/deep/probe.ts": imp("../../server/app.ts"),
      "src/http/load-probe.ts": imp("../config/load.ts"),
      "src/http/schema-probe.ts": imp("../config/schema.ts"),
      "src/runs/http-probe.ts": imp("./http/sse.ts"),
      "src/runs/http/sse.ts": imp("../service.ts"),
      "src/collections/core-probe.ts": imp("./uploads/spool.ts"),
      "src/collections/uploads/spool.ts": 'import type { Q } from "../import/queue.ts";\nexport type S = Q;\n',
      "src/collections/uploads/value-probe.ts": imp("../import/queue.ts"),
      "src/collections/import/queue.ts": imp("../uploads/spool.ts"),
      "src/server/app.ts": 'const w = new URL("../cli/worker.ts", import.meta.url);\nexport const app = w;\n',
      "src/cli/worker.ts": "export const x = 1;\n",
    });
    expect(exitCode).toBe(1);
    expect(refused.sort()).toEqual([
      "src/collections/core-probe.ts",
      "src/collections/uploads/value-probe.ts",
      "src/http/deep/probe.ts",
      "src/http/load-probe.ts",
      "src/runs/http-probe.ts",
      "src/server/app.ts",
      "src/store/probe.ts",
    ]);
  });

  test("imports are read in every form, comments left out", () => {
    const text = [
      'import type { A } from "./a.ts";',
      "import {",
      "  b,",
      '} from "../b.ts";',
      'export { c } from "./c.ts";',
      'import "./d.css";',
      'const e = await import("./e.ts");',
      'const w = new Worker(new URL("./worker.ts", import.meta.url));',
      'const v = workerUrl("y/worker.ts");',
      `const dyn = new URL(\`../\${inSrc}\`, import.meta.url);`,
      '// import { no } from "./comment.ts";',
      ' * see import("./doc.ts")',
      'import { z } from "zod";',
    ].join("\n");
    expect(importsOf("src/x/f.ts", text)).toEqual([
      { file: "src/x/f.ts", target: "src/x/a.ts", typeOnly: true },
      { file: "src/x/f.ts", target: "src/b.ts", typeOnly: false },
      { file: "src/x/f.ts", target: "src/x/c.ts", typeOnly: false },
      { file: "src/x/f.ts", target: "src/x/d.css", typeOnly: false },
      { file: "src/x/f.ts", target: "src/x/e.ts", typeOnly: false },
      { file: "src/x/f.ts", target: "src/x/worker.ts", typeOnly: false },
      { file: "src/x/f.ts", target: "src/y/worker.ts", typeOnly: false },
    ]);
    expect(unitOf("src/runs/http/sse.ts")?.unit).toBe("src/runs/http");
    expect(unitOf("src/runs/instances/attach.ts")?.unit).toBe("src/runs");
  });

  test("`bun run lint` runs the fence", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.lint).toContain("bun .ci/fence.ts");
  });
});

describe("the cycle rule", () => {
  test("Biome fails a cycle of value imports between two files", () => {
    const { exitCode, cycles } = withScratch(
      {
        "biome.jsonc": readFileSync(join(ROOT, "biome.jsonc"), "utf8"),
        "src/util/a.ts": 'import { b } from "./b.ts";\nexport const a = () => b;\n',
        "src/util/b.ts": 'import { a } from "./a.ts";\nexport const b = () => a;\n',
      },
      (dir) => {
        const run = Bun.spawnSync([BIOME, "lint", "--vcs-enabled=false", "--reporter=json", "src"], { cwd: dir });
        const out = run.stdout.toString();
        const report = JSON.parse(out.slice(out.indexOf("{"))) as {
          diagnostics: { category: string; location: { path: string } }[];
        };
        const cycles = report.diagnostics.filter((d) => d.category === "lint/suspicious/noImportCycles");
        return { exitCode: run.exitCode, cycles: cycles.map((d) => d.location.path).sort() };
      },
    );
    expect(exitCode).not.toBe(0);
    expect(cycles).toEqual(["src/util/a.ts", "src/util/b.ts"]);
  });

  test("no two folders of src/ import each other", () => {
    const edges = new Map<string, string>(); // "from → to" → one importing file, for the message
    for (const i of scanTree(ROOT)) {
      const from = i.file.split("/")[1]!;
      const to = i.target.split("/")[1];
      if (i.target.startsWith("src/") && to !== undefined && to !== from) edges.set(`${from} → ${to}`, i.file);
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
