import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importPaths } from "../../src/corpus/import/import-paths.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { sharedCollection } from "../corpus/collections-helpers.ts";
import { Client } from "../helpers/server.ts";
import { rawStream } from "./sse-client.ts";
import { syntheticDocs } from "./synthetic-corpus.ts";

const DATA = new URL("../../../shared/data/scifact/", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))]!;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** A free loopback port (bound and let go: the server then takes it). */
function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/**
 * The product as an operator runs it (`serve`, its own process, so the client's work is not
 * measured as the server's): collections only (no web, no model: extractive answers), limits
 * raised so the benchmark's files fit.
 */
async function startProduct(dir: string) {
  const port = freePort();
  const proc = Bun.spawn(["bun", "run", join(ROOT, "src/cli/main.ts"), "serve"], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_PATH: join(dir, "rq.db"),
      LOCAL_SEARCH: "only",
      GROQ_API_KEY: "",
      OPENAI_BASE_URL: "",
      LOG_LEVEL: "error",
      SIGNUP_PER_HOUR: "1000",
      PLAN_RUNS_FREE: "1000000",
      PLAN_DOCS_FREE: "10000000",
      PLAN_BYTES_FREE: String(64 * 2 ** 30),
      UPLOAD_MAX_FILE_BYTES: String(512 * 2 ** 20),
      UPLOAD_MAX_REQUEST_BYTES: String(512 * 2 ** 20),
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { base, port, proc };
    await Bun.sleep(50);
  }
  proc.kill();
  throw new Error("the server did not start");
}

type DocStatus = { doc_id: string; status: string; error?: string };

/**
 * Uploads files into a collection and waits until none is queued or indexing, polling the
 * collections list every `pollMs` (the web app polls once a second); ms from the POST.
 */
async function uploadAndWait(c: Client, collection: string, files: { name: string; path: string }[], pollMs: number) {
  const t0 = performance.now();
  const form = new FormData();
  for (const f of files) form.append("files", Bun.file(f.path), f.name);
  const res = await fetch(`${c.base}/api/console/collections/${collection}/documents`, {
    method: "POST",
    headers: { cookie: c.cookie! },
    body: form,
  });
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${await res.text()}`);
  const accepted = performance.now() - t0;
  const done = waitReady(c, collection, pollMs);
  return { accepted, done: done.then((r) => ({ ...r, ms: performance.now() - t0 })) };
}

/** The collection's status as the Console's list says it: indexing while any document is queued or indexing. */
async function collectionStatus(c: Client, collection: string): Promise<string | undefined> {
  const list = (await (await c.req("GET", "/api/console/collections")).json()) as {
    collections: { name: string; status: string }[];
  };
  return list.collections.find((x) => x.name === collection)?.status;
}

/** Every document of a collection, following the list's pages (200 a page, `next` the following one's ?from=). */
async function allDocuments(c: Client, collection: string): Promise<DocStatus[]> {
  const out: DocStatus[] = [];
  let from: string | null = null;
  do {
    const q: string = from === null ? "" : `?from=${encodeURIComponent(from)}`;
    const page = (await (await c.req("GET", `/api/console/collections/${collection}/documents${q}`)).json()) as {
      documents: DocStatus[];
      next: string | null;
    };
    out.push(...page.documents);
    from = page.next;
  } while (from !== null);
  return out;
}

/** Waits until the collection is ready with documents in it (ready or failed), polling every `pollMs`. */
async function waitReady(c: Client, collection: string, pollMs: number) {
  for (;;) {
    if ((await collectionStatus(c, collection)) === "ready") {
      const docs = await allDocuments(c, collection);
      if (docs.length)
        return {
          ready: docs.filter((d) => d.status === "ready").length,
          failed: docs.filter((d) => d.status === "failed"),
        };
    }
    await Bun.sleep(pollMs);
  }
}

/** First-event latency of `n` streamed questions, one every `gapMs`, with their share answered ok. */
async function firstEvents(port: number, key: string, questions: string[], gapMs: number) {
  const out: number[] = [];
  let ok = 0;
  for (const q of questions) {
    const r = await rawStream(
      port,
      "/api/query/stream",
      { authorization: `Bearer ${key}`, "content-type": "application/json" },
      JSON.stringify({ query: q }),
    );
    out.push(r.firstEventMs);
    if (r.ok) ok++;
    await Bun.sleep(gapMs);
  }
  return { p50: pct(out, 50), p99: pct(out, 99), max: Math.max(...out), ok };
}

/** Whole-run latency of `n` questions through POST /api/query, one after another. */
async function wholeRuns(base: string, key: string, questions: string[]) {
  const out: number[] = [];
  for (const q of questions) {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/query`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ query: q }),
    });
    await res.json();
    out.push(performance.now() - t0);
  }
  return { p50: pct(out, 50), p99: pct(out, 99) };
}

/**
 * Section 9: collections filled through the Console API (README "Collections for a team").
 * Upload-to-ready of SciFact's corpus (one .jsonl.gz, 5,183 abstracts) beside `corpus add` of
 * the same file; then the first event of streamed questions with no upload and while a large
 * upload is being imported.
 */
export async function benchUploads(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "rq-bench-uploads-"));
  const corpus = join(DATA, "corpus.jsonl.gz");
  // The CLI's import of the same file, in this process, as the baseline.
  const store = openSqliteStore(join(dir, "cli.db"));
  const t0 = performance.now();
  const cli = await importPaths(store, [corpus], { collection: await sharedCollection(store, "scifact") });
  const cliMs = performance.now() - t0;
  store.close();

  const big = join(dir, "synthetic-100k.jsonl");
  await Bun.write(big, `${[...syntheticDocs(0, 100_000)].map((d) => JSON.stringify(d)).join("\n")}\n`);
  const bigBytes = Bun.file(big).size;

  const srv = await startProduct(dir);
  try {
    const c = new Client(srv.base);
    await c.signup();
    const key = (await c.createKey()).key;
    for (const name of ["scifact", "bulk"]) {
      const r = await c.req("POST", "/api/console/collections", { name });
      if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${await r.text()}`);
    }
    const up = await uploadAndWait(c, "scifact", [{ name: "corpus.jsonl.gz", path: corpus }], 100);
    const sci = await up.done;

    const claims = (await Bun.file(join(DATA, "queries-train.jsonl")).text())
      .split("\n")
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { text: string }).text);
    await firstEvents(srv.port, key, claims.slice(0, 3), 0); // warm-up
    const quiet = await firstEvents(srv.port, key, claims.slice(0, 60), 100);
    const quietRuns = await wholeRuns(srv.base, key, claims.slice(120, 140));
    // Polled as the web app does, once a second: the list grows to 100,000 entries.
    const bulk = await uploadAndWait(c, "bulk", [{ name: "synthetic-100k.jsonl", path: big }], 1000);
    const busy = await firstEvents(srv.port, key, claims.slice(60, 120), 100);
    const busyRuns = await wholeRuns(srv.base, key, claims.slice(140, 160));
    const stillIndexing = (await collectionStatus(c, "bulk")) === "indexing";
    const bulkDone = await bulk.done;

    const row = (label: string, r: Awaited<ReturnType<typeof firstEvents>>, w: { p50: number; p99: number }) =>
      `| ${label} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.ok}/60 | ${ms(w.p50)} | ${ms(w.p99)} |`;
    return [
      `Upload to ready through the Console API (\`serve\` in its own process, SQLite, one multipart POST, then polling the collection's status in the Console's list every 100 ms for SciFact, every second — as the web app does — for the large file, and counting its documents page by page once ready):`,
      "",
      "| file | documents ready | failed | 202 after | all ready after | `corpus add` of the same file |",
      "|---|---|---|---|---|---|",
      `| SciFact corpus.jsonl.gz | ${sci.ready} | ${sci.failed.length} | ${ms(up.accepted)} | ${(sci.ms / 1000).toFixed(2)} s | ${cli.added} in ${(cliMs / 1000).toFixed(2)} s |`,
      `| synthetic ${(bigBytes / 2 ** 20).toFixed(0)} MB JSONL | ${bulkDone.ready} | ${bulkDone.failed.length} | ${ms(bulk.accepted)} | ${(bulkDone.ms / 1000).toFixed(2)} s | – |`,
      "",
      `First event of 60 streamed SciFact claims, one every 100 ms (a run over the ${sci.ready} abstracts each), with no upload and while the ${(bigBytes / 2 ** 20).toFixed(0)} MB upload was being imported${stillIndexing ? " (still importing when the last question was answered)" : " (the import ended before the last question)"}:`,
      "",
      "| | first event p50 | p99 | max | streams ok | whole run p50 (20 via /api/query) | p99 |",
      "|---|---|---|---|---|---|---|",
      row("no upload", quiet, quietRuns),
      row("during the import", busy, busyRuns),
    ].join("\n");
  } finally {
    srv.proc.kill();
    await srv.proc.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
