import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli } from "../cli/run-cli.ts";
import { call, member } from "../collections/collection-calls.ts";
import { settled, upload } from "../collections/uploads/upload-calls.ts";
import { type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";
import { tinyPdf } from "../fixtures/tiny-pdf.ts";
import { spawnServe } from "../helpers/serve-process.ts";
import { keyedClient, query } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

/** A Prometheus text exposition read back: each sample by `name{labels}`, each family's TYPE. */
function parseExposition(text: string) {
  const samples = new Map<string, number>();
  const types = new Map<string, string>();
  const helps = new Set<string>();
  for (const line of text.split("\n")) {
    if (!line) continue;
    const meta = /^# (HELP|TYPE) (\w+) (.+)$/.exec(line);
    if (meta) {
      if (meta[1] === "TYPE") types.set(meta[2]!, meta[3]!);
      else helps.add(meta[2]!);
      continue;
    }
    // Label values may hold braces (route patterns): a quoted value is read whole.
    const m = /^(\w+)(\{(?:[^"}]|"(?:[^"\\]|\\.)*")*\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    samples.set(m[1]! + (m[2] ?? ""), Number(m[3]));
  }
  return { samples, types, helps };
}

let pages: PageServer, search: SearchFixtures;
/** The serve process of the test: killed after it if a failed check left it running. */
let serving: Bun.Subprocess | undefined;
beforeAll(() => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
});
afterAll(() => {
  if (serving?.exitCode === null) serving.kill("SIGKILL");
  pages.stop();
  search.stop();
});

describe("serve as an operator runs it: /metrics, then a stop that leaves nothing running", () => {
  test("the process, its build and every pool of threads are scraped; `stopped`, last, counts no thread left", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-process-metrics-"));
    mkdirSync(join(dir, "notes"));
    writeFileSync(join(dir, "notes/cells.md"), "# Cells\n\nSolid-state batteries are limited by dendrites.\n");
    const db = join(dir, "rq.db");
    expect(
      (await cli(["corpus", "add", join(dir, "notes"), "--collection", "notes", "--shared"], { DATABASE_PATH: db }))
        .code,
    ).toBe(0);
    const s = await spawnServe(
      {
        DATABASE_PATH: db,
        DEFAULT_PLAN: "pro",
        SEARXNG_URL: search.urls.searxng,
        ACADEMIC_PROVIDERS: "none",
        FETCH_ALLOW_PRIVATE: "true",
      },
      dir,
    );
    serving = s.proc;
    // A run reads pages on the parse threads and searches the collection on the search threads;
    // an upload is imported on the import thread.
    const { key } = await keyedClient(s.base);
    const run = await query(s.base, key, { query: "What limits solid-state batteries?" });
    expect((await run.json()).status).toBe("ok");
    const m = await member(s.base);
    expect((await call(m, "POST", "/api/console/collections", { name: "mine" })).status).toBe(201);
    const pdf = tinyPdf(["Solid-state cells are limited by their interfaces."]);
    expect((await upload(m, "mine", [{ name: "cells.pdf", data: pdf }])).status).toBe(202);
    expect((await settled(m, "mine")).map((d) => d.status)).toEqual(["ready"]);

    const res = await fetch(`${s.base}/metrics`);
    expect(res.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
    const { samples, types, helps } = parseExposition(await res.text());
    // Every family says what it is.
    for (const name of types.keys()) expect([name, helps.has(name)]).toEqual([name, true]);

    const version = (await Bun.file(join(import.meta.dir, "../../package.json")).json()).version;
    expect(samples.get(`research_query_build_info{version="${version}",bun="${Bun.version}"}`)).toBe(1);
    for (const [name, type] of [
      ["process_resident_memory_bytes", "gauge"],
      ["process_virtual_memory_bytes", "gauge"],
      ["process_heap_bytes", "gauge"],
      ["process_open_fds", "gauge"],
      ["process_max_fds", "gauge"],
      ["process_cpu_user_seconds_total", "counter"],
      ["process_cpu_system_seconds_total", "counter"],
      ["process_cpu_seconds_total", "counter"],
      ["process_start_time_seconds", "gauge"],
      ["rq_uptime_seconds", "gauge"],
    ] as const) {
      expect([name, types.get(name)]).toEqual([name, type]);
      expect([name, samples.get(name)! > 0]).toEqual([name, true]);
    }
    expect(samples.get("process_start_time_seconds")!).toBeLessThan(Date.now() / 1000);

    // Each pool by its label: its size, and the jobs this walk gave it.
    for (const pool of ["parse", "search", "import"]) {
      expect([pool, samples.get(`rq_worker_threads_max{pool="${pool}"}`)! >= 1]).toEqual([pool, true]);
      expect([pool, samples.get(`rq_worker_jobs_total{outcome="ok",pool="${pool}"}`)! >= 1]).toEqual([pool, true]);
      // The rest are there; their values are the machine's (a job past its deadline on a loaded box is an error).
      for (const name of [
        `rq_worker_jobs_total{outcome="error",pool="${pool}"}`,
        `rq_worker_restarts_total{pool="${pool}"}`,
        `rq_worker_threads{pool="${pool}"}`,
        `rq_worker_threads_busy{pool="${pool}"}`,
        `rq_worker_jobs_queued{pool="${pool}"}`,
      ])
        expect([name, samples.get(name)! >= 0]).toEqual([name, true]);
    }
    expect(types.get("rq_worker_jobs_total")).toBe("counter");
    // The upload: received, its bytes, imported, nothing waiting.
    expect(samples.get("rq_upload_files_total")).toBe(1);
    expect(samples.get("rq_upload_bytes_total")).toBe(pdf.byteLength);
    expect(samples.get("rq_uploads_in_flight")).toBe(0);
    expect(samples.get('rq_imports_total{outcome="imported"}')).toBe(1);
    expect(samples.get("rq_imported_documents_total")).toBe(1);
    expect(samples.get('rq_uploads{status="queued"}')).toBe(0);
    expect(samples.get('rq_uploads{status="indexing"}')).toBe(0);

    s.proc.kill("SIGTERM");
    // It exits on its own after the signal, and `stopped` is its last word: every thread has
    // ended before it (one alive at exit holds the exit until it can be stopped).
    expect(await s.proc.exited).toBe(0);
    const lines = (await s.out.rest()).trim().split("\n");
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ level: "info", msg: "stopped", threads: 0 });
    expect(await s.err.rest()).toBe("");
  });
});
