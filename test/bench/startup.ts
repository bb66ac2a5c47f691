import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");

/** Section 5: binary size, cold start to the first /healthz 200, RSS at idle. */
export async function benchStartup(runs = 7): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), "rq-size-")), "research-query");
  const b = Bun.spawn(
    [
      "bun",
      "build",
      "src/cli/main.ts",
      "src/research/read/parse-worker.ts",
      "--compile",
      "--minify",
      "--no-compile-autoload-dotenv",
      "--no-compile-autoload-bunfig",
      "--outfile",
      out,
    ],
    { cwd: ROOT, stdout: "ignore", stderr: "inherit" },
  );
  if ((await b.exited) !== 0) return "startup: build failed";
  const size = statSync(out).size;
  const starts: number[] = [],
    rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), "rq-start-"));
    const port = 10000 + Math.floor(Math.random() * 20000);
    const t0 = performance.now();
    const p = Bun.spawn([out, "serve"], {
      cwd: dir,
      env: { PATH: "/usr/bin:/bin", PORT: String(port), LOG_LEVEL: "warn" },
      stdout: "ignore",
      stderr: "ignore",
    });
    let up = false;
    while (!up && performance.now() - t0 < 10_000) {
      up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (!up) await Bun.sleep(2);
    }
    starts.push(performance.now() - t0);
    await Bun.sleep(1000);
    rss.push(Number(/VmRSS:\s+(\d+)/.exec(await Bun.file(`/proc/${p.pid}/status`).text())?.[1] ?? 0) / 1024);
    p.kill("SIGTERM");
    await p.exited;
  }
  const med = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return [
    `Startup and size (compiled linux binary, fresh directory each start: creates and migrates the database; median of ${runs}):`,
    "",
    "| measure | value | target |",
    "|---|---|---|",
    `| binary size | ${(size / 1e6).toFixed(1)} MB | — |`,
    `| cold start → first /healthz 200 | ${med(starts).toFixed(0)} ms | < 300 ms |`,
    `| RSS at idle (1 s after start) | ${med(rss).toFixed(0)} MB | < 80 MB |`,
  ].join("\n");
}

if (import.meta.main) console.log(await benchStartup());
