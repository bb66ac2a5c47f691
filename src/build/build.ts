/**
 * Builds the single executable; the build flags live only here.
 *
 *   bun run build            (bun src/build/build.ts)        → dist/research-query for this machine
 *   bun run build:all        (bun src/build/build.ts --all)  → dist/research-query-<target without "bun-">
 *                                                               for each of TARGETS (.exe added for Windows)
 *   bun src/build/build.ts --outfile PATH                     → this machine's binary at PATH
 *
 * The parse worker, the upload import worker, the search worker and the WAL checkpoint thread are
 * entrypoints too, so the binary carries them (their pools and the checkpointer find them in the
 * embedded file system through src/util/worker-url.ts). A compiled binary reads no .env or bunfig.toml from the
 * directory it is started in: its configuration comes from the environment only.
 */
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const ROOT = join(import.meta.dir, "../..");
const ENTRYPOINTS = [
  "src/cli/main.ts",
  "src/research/read/parse-worker.ts",
  "src/collections/import/import-worker.ts",
  "src/corpus/search/search-worker.ts",
  "src/store/sqlite/checkpoint-worker.ts",
].map((p) => join(ROOT, p));
const NAME = "research-query";
const TARGETS: Bun.Build.CompileTarget[] = [
  "bun-linux-x64",
  "bun-linux-x64-baseline",
  "bun-linux-arm64",
  "bun-darwin-x64",
  "bun-darwin-arm64",
  "bun-windows-x64",
];

/**
 * `target` undefined: this machine. Byte for byte what `bun build <entrypoints> --compile --minify
 * --no-compile-autoload-dotenv --no-compile-autoload-bunfig [--target=…] --outfile …` writes.
 */
async function compile(outfile: string, target?: Bun.Build.CompileTarget): Promise<void> {
  const out = await Bun.build({
    entrypoints: ENTRYPOINTS,
    minify: true,
    compile: { ...(target && { target }), outfile, autoloadDotenv: false, autoloadBunfig: false },
  });
  // Bun adds .exe for Windows; report the file it wrote.
  console.log(`built ${out.outputs[0]?.path ?? outfile}${target ? ` (${target})` : ""}`);
}

try {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: { all: { type: "boolean", default: false }, outfile: { type: "string" } },
  });
  if (values.all) {
    if (values.outfile) throw new Error("--outfile names one binary; it cannot be combined with --all");
    for (const target of TARGETS) await compile(join(ROOT, "dist", `${NAME}-${target.replace(/^bun-/, "")}`), target);
  } else {
    await compile(values.outfile ? resolve(values.outfile) : join(ROOT, "dist", NAME));
  }
} catch (e) {
  // Bun.build rejects with an AggregateError carrying the bundler's messages.
  const lines = e instanceof AggregateError ? e.errors.map(String) : [e instanceof Error ? e.message : String(e)];
  console.error(`build failed:\n${lines.join("\n")}`);
  process.exit(1);
}
