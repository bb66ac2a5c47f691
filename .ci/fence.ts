// The fence: every import of src/ checked against the layer table (.ci/layers.ts); what the table
// does not name is refused. Run by `bun run lint` (docs/decisions/0130-a-fence-that-refuses-by-default.md).
// Threat: a new folder or a backward import quietly joining layers that were kept apart.

import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { LAYERS, type Layer } from "./layers.ts";

export interface Import {
  file: string; // repo-relative, "src/runs/service.ts"
  target: string; // repo-relative, normalised
  typeOnly: boolean;
}

// Line comments are dropped first, so a path quoted in prose is no import.
const COMMENT = /^\s*(?:\/\/|\/\*|\*).*$/gm;
const STATIC = /^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s*["']([^"']+)["']/gm;
const BARE = /^\s*import\s*["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g;
// A worker's script: a relative path on a line that resolves against import.meta.url.
const META_LINE = /^.*\bimport\.meta\.url\b.*$/gm;
const RELATIVE = /["'`](\.{1,2}\/[^"'`$]+)["'`]/g;
// A worker's script named by its path under src/ (src/util/worker-url.ts).
const WORKER = /\bworkerUrl\(\s*["'`]([^"'`$]+)["'`]/g;

/** The relative imports of one file's text (static, `import()`, worker paths beside `import.meta.url` or named to `workerUrl`). A path built at run time (`${…}`) is not read. */
export function importsOf(file: string, text: string): Import[] {
  const code = text.replace(COMMENT, "");
  const found: { spec: string; typeOnly: boolean }[] = [];
  for (const m of code.matchAll(STATIC)) found.push({ spec: m[3]!, typeOnly: m[2] !== undefined });
  for (const m of code.matchAll(BARE)) found.push({ spec: m[1]!, typeOnly: false });
  for (const m of code.matchAll(DYNAMIC)) found.push({ spec: m[1]!, typeOnly: false });
  for (const line of code.match(META_LINE) ?? [])
    for (const m of line.matchAll(RELATIVE)) found.push({ spec: m[1]!, typeOnly: false });
  const inSrc = [...code.matchAll(WORKER)].map((m) => ({ file, target: `src/${m[1]!}`, typeOnly: false }));
  return found
    .filter((f) => f.spec.startsWith("./") || f.spec.startsWith("../"))
    .map((f) => ({ file, target: normalize(join(dirname(file), f.spec)), typeOnly: f.typeOnly }))
    .concat(inSrc);
}

/** The table's unit holding `path` (the longest that starts it), or null: a folder the table doesn't know. */
export function unitOf(path: string, layers: readonly Layer[] = LAYERS): Layer | null {
  let best: Layer | null = null;
  for (const l of layers)
    if ((path === l.unit || path.startsWith(`${l.unit}/`)) && l.unit.length > (best?.unit.length ?? -1)) best = l;
  return best;
}

/** Whether `entry` of a `may` list ("src/store", "src/runs/**", "db/**") names `unit`. */
export function names(entry: string, unit: string): boolean {
  if (!entry.endsWith("/**")) return entry === unit;
  const base = entry.slice(0, -3);
  return unit === base || unit.startsWith(`${base}/`);
}

/** What the table refuses among `imports`, one line each. */
export function refusals(imports: readonly Import[], layers: readonly Layer[] = LAYERS): string[] {
  const out: string[] = [];
  for (const i of imports) {
    const from = unitOf(i.file, layers);
    if (!from) {
      out.push(`${i.file} imports ${i.target}: the importer's folder is not in the layer table (.ci/layers.ts)`);
      continue;
    }
    const inSrc = i.target === "src" || i.target.startsWith("src/");
    const to = inSrc ? unitOf(i.target, layers) : null;
    if (inSrc && !to) {
      out.push(`${i.file} imports ${i.target}: the imported folder is not in the layer table (.ci/layers.ts)`);
      continue;
    }
    const unit = to?.unit ?? i.target;
    if (unit === from.unit) continue;
    const allowed =
      (from.may.some((e) => names(e, unit)) || (i.typeOnly && (from.types ?? []).some((e) => names(e, unit)))) &&
      !(from.never ?? []).includes(i.target);
    if (!allowed) out.push(`${i.file} imports ${i.target}: against the import direction (${from.why})`);
  }
  return out;
}

/** Every relative import of the TypeScript, HTML and CSS under `root`/src. */
export function scanTree(root: string): Import[] {
  const out: Import[] = [];
  for (const file of new Bun.Glob("src/**/*.{ts,tsx,js,mjs,html,css}").scanSync({ cwd: root }))
    out.push(...importsOf(file, readFileSync(join(root, file), "utf8")));
  return out;
}

// `bun .ci/fence.ts [root]`: the repository by default, another tree (a test's scratch one) if named.
if (import.meta.main) {
  const problems = refusals(scanTree(process.argv[2] ?? join(import.meta.dir, "..")));
  for (const p of problems) console.error(p);
  if (problems.length) {
    console.error(`fence: ${problems.length} import(s) refused; the layers are in .ci/layers.ts`);
    process.exit(1);
  }
}
