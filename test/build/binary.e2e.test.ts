import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { type ChatServer, isPlannerCall, startChatServer } from "../fixtures/chat-server.ts";
import { type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";
import { tinyPdf } from "../fixtures/tiny-pdf.ts";
import { startOtlpReceiver } from "../helpers/otlp-receiver.ts";
import { processLog } from "../helpers/process-log.ts";
import { keyedClient, query } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { mcpSession, textOf } from "../mcp/mcp-client.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

const ROOT = join(import.meta.dir, "../..");
let pages: PageServer, search: SearchFixtures, chat: ChatServer, bin: string;

beforeAll(async () => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
  chat = startChatServer((b) =>
    isPlannerCall(b)
      ? { text: '{"kind":"general","language":"en","queries":["base editing"]}' }
      : { text: "Base editors change one DNA letter [S1]." },
  );
  const out = join(mkdtempSync(join(tmpdir(), "rq-build-")), "research-query");
  // The same build script (and flags) as `bun run build`.
  const p = Bun.spawn(["bun", "src/build/build.ts", "--outfile", out], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if ((await p.exited) !== 0) throw new Error(`build failed: ${await new Response(p.stderr).text()}`);
  // Alone in an empty directory: nothing of the checkout can be found from there.
  const dir = mkdtempSync(join(tmpdir(), "rq-bin-"));
  bin = join(dir, "research-query");
  copyFileSync(out, bin);
}, 120_000);
afterAll(() => {
  pages.stop();
  search.stop();
  chat.stop();
});

describe("the single executable", () => {
  test("copied alone into an empty directory: starts, migrates, serves accounts, keys, both query endpoints and usage", async () => {
    const dir = join(bin, "..");
    const port = 10000 + Math.floor(Math.random() * 20000);
    const env = {
      PATH: "/usr/bin:/bin",
      PORT: String(port),
      SEARXNG_URL: search.urls.searxng,
      ACADEMIC_PROVIDERS: "none",
      FETCH_ALLOW_PRIVATE: "true",
      OPENAI_BASE_URL: chat.openaiBase,
    };
    const p = Bun.spawn([bin, "serve"], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
    try {
      const base = `http://127.0.0.1:${port}`;
      const log = processLog(p.stdout);
      await log.until('"msg":"listening"');
      expect(readdirSync(join(dir, "data"))).toContain("research-query.db");
      const signup = await fetch(`${base}/api/v1/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "bin@example.com", password: "binary password" }),
      });
      expect(signup.status).toBe(201);
      const cookie = signup.headers.get("set-cookie")!.split(";")[0]!;
      const key = (
        (await (
          await fetch(`${base}/api/console/keys`, {
            method: "POST",
            headers: { cookie, "content-type": "application/json" },
            body: "{}",
          })
        ).json()) as { key: string }
      ).key;
      const q = (path: string) =>
        fetch(base + path, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ query: "What is base editing?" }),
        });
      const env1 = (await (await q("/api/query")).json()) as { status: string; sources: unknown[]; writer: string };
      expect(env1.status).toBe("ok");
      expect(env1.writer).toBe("llm");
      const { events } = await readSse(await q("/api/query/stream"));
      expect(events.at(-1)!.event).toBe("final");
      expect(events.at(-1)!.data.status).toBe("ok");
      const usage = (await (await fetch(`${base}/api/console/usage`, { headers: { cookie } })).json()) as {
        allowance: { used: number };
      };
      expect(usage.allowance.used).toBe(2);
      // The pages were parsed by the worker thread the binary carries, not the inline fallback.
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toMatch(/rq_document_parses_total\{outcome="ok",where="worker"\} [1-9]/);
      expect(metrics).not.toContain('where="inline"');
      // The binary knows its version, and the thread that parsed them.
      expect(metrics).toContain(`research_query_build_info{version="${pkg.version}",`);
      expect(metrics).toMatch(/rq_worker_jobs_total\{outcome="ok",pool="parse"\} [1-9]/);
      // An upload is imported by the import worker the binary carries (it has no inline fallback).
      await fetch(`${base}/api/console/collections`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ name: "notes" }),
      });
      const fd = new FormData();
      fd.append("files", new File([tinyPdf(["Uploaded into the binary."], "Binary upload") as BlobPart], "up.pdf"));
      const docsAt = `${base}/api/console/collections/notes/documents`;
      expect((await fetch(docsAt, { method: "POST", body: fd, headers: { cookie } })).status).toBe(202);
      let doc: { status: string; title: string } | undefined;
      do {
        await Bun.sleep(20);
        doc = ((await (await fetch(docsAt, { headers: { cookie } })).json()) as { documents: (typeof doc)[] })
          .documents[0];
      } while (doc?.status === "queued" || doc?.status === "indexing");
      expect(doc).toMatchObject({ status: "ready", title: "Binary upload" });
      // A stop ends every thread (parse, import, checkpoints) before its last line, then exits.
      p.kill("SIGTERM");
      expect(await p.exited).toBe(0);
      const last = JSON.parse((await log.rest()).trim().split("\n").at(-1)!);
      expect(last).toMatchObject({ msg: "stopped", threads: 0 });
    } finally {
      p.kill("SIGTERM");
      await p.exited;
    }
  });

  test("exports a run's trace to an OTLP/HTTP collector (the SDK inside the binary)", async () => {
    const receiver = startOtlpReceiver();
    const dir = mkdtempSync(join(tmpdir(), "rq-bin-traces-"));
    const port = 10000 + Math.floor(Math.random() * 20000);
    const env = {
      PATH: "/usr/bin:/bin",
      PORT: String(port),
      DATABASE_PATH: join(dir, "rq.db"),
      SEARXNG_URL: search.urls.searxng,
      ACADEMIC_PROVIDERS: "none",
      FETCH_ALLOW_PRIVATE: "true",
      OPENAI_BASE_URL: chat.openaiBase,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    };
    const p = Bun.spawn([bin, "serve"], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
    try {
      const base = `http://127.0.0.1:${port}`;
      await processLog(p.stdout).until('"msg":"listening"');
      const { key } = await keyedClient(base);
      const env1 = (await (await query(base, key, { query: "What is base editing?" })).json()) as {
        request_id: string;
        status: string;
      };
      expect(env1.status).toBe("ok");
      const spans = await receiver.until((all) =>
        ["research.run", "research.write", "research.verify"].every((n) =>
          all.some((s) => s.name === n && s.attributes["research.request_id"] === env1.request_id),
        ),
      );
      const run = spans.find((s) => s.name === "research.run")!;
      expect(spans.some((s) => s.kind === 2 && s.traceId === run.traceId && s.spanId === run.parentSpanId)).toBe(true);
    } finally {
      p.kill("SIGTERM");
      await p.exited;
      receiver.stop();
    }
  });

  test("--help works without Bun or the checkout", async () => {
    const p = Bun.spawn([bin, "--help"], { cwd: join(bin, ".."), env: { PATH: "/usr/bin:/bin" }, stdout: "pipe" });
    expect(await new Response(p.stdout).text()).toContain("DATABASE_PATH");
    expect(await p.exited).toBe(0);
  });

  test("--version prints package.json's version, carried inside the binary", async () => {
    const p = Bun.spawn([bin, "--version"], { cwd: join(bin, ".."), env: { PATH: "/usr/bin:/bin" }, stdout: "pipe" });
    expect(await new Response(p.stdout).text()).toBe(`research-query ${pkg.version}\n`);
    expect(await p.exited).toBe(0);
  });

  test("air-gapped: imports a folder (PDF, HTML, Markdown, JSONL), searches it and answers from it with nothing else reachable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-bin-corpus-"));
    const docs = join(dir, "docs");
    mkdirSync(join(docs, "papers"), { recursive: true });
    writeFileSync(
      join(docs, "papers/cells.pdf"),
      tinyPdf(["Solid-state cells fail when lithium dendrites cross the ceramic separator at high current."], "Cells"),
    );
    writeFileSync(
      join(docs, "notes.md"),
      "# Electrolyte notes\n\nSulfide electrolytes conduct lithium ions well but react with moist air.\n",
    );
    writeFileSync(
      join(docs, "wiki.html"),
      "<html><head><title>Interfaces</title></head><body><article><p>Interface resistance between the cathode and a solid electrolyte grows with every charge cycle of the battery.</p></article></body></html>",
    );
    writeFileSync(
      join(docs, "more.jsonl"),
      `${JSON.stringify({ id: "r1", title: "Dendrites", text: "Dendrite growth limits how fast solid-state batteries can charge." })}\n`,
    );
    // No search provider, no model: PATH only, so nothing of the checkout or the network helps.
    const env = { PATH: "/usr/bin:/bin", DATABASE_PATH: join(dir, "rq.db"), ACADEMIC_PROVIDERS: "none" };
    const run = async (...args: string[]) => {
      const p = Bun.spawn([bin, ...args], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = [
        await new Response(p.stdout).text(),
        await new Response(p.stderr).text(),
        await p.exited,
      ];
      return { out, err, code };
    };
    const add = await run("corpus", "add", docs, "--collection", "notes", "--shared");
    expect(add.code).toBe(0);
    expect(add.out).toContain("notes: 4 added");
    const found = JSON.parse((await run("corpus", "search", "dendrites separator", "--json")).out) as {
      results: { doc_id: string }[];
    };
    expect(found.results[0]!.doc_id).toBe("papers/cells.pdf");
    const ask = await run("ask", "What limits solid-state batteries?", "--json");
    expect(ask.code).toBe(0);
    const envelope = JSON.parse(ask.out) as { status: string; sources: { type: string; collection: string }[] };
    expect(envelope.status).toBe("ok");
    expect(envelope.sources.length).toBeGreaterThan(0);
    for (const s of envelope.sources) expect([s.type, s.collection]).toEqual(["local", "notes"]);
  });

  test("mcp: the binary is an MCP server, answering on this machine and through its own server with a key", async () => {
    const env = {
      PATH: "/usr/bin:/bin",
      SEARXNG_URL: search.urls.searxng,
      ACADEMIC_PROVIDERS: "none",
      FETCH_ALLOW_PRIVATE: "true",
      OPENAI_BASE_URL: chat.openaiBase,
    };
    const ask = { name: "research", arguments: { question: "What do base editors change?" } };
    const local = await mcpSession([], env, [bin]);
    try {
      expect((await local.client.listTools()).tools.map((t) => t.name)).toEqual(["research", "extract"]);
      const progress: string[] = [];
      const r = await local.client.callTool(ask, undefined, { onprogress: (p) => progress.push(p.message ?? "") });
      expect(textOf(r)).toStartWith(
        "Base editors change one DNA letter [S1].\n\nChecked: 1 of 1 claims backed by a quote from their source.\n\nSources:\n[S1] ",
      );
      expect(r.structuredContent).toMatchObject({ status: "ok", writer: "llm" });
      expect(progress.some((m) => m.startsWith("writing: "))).toBe(true);
      expect(local.transportErrors).toEqual([]);
    } finally {
      await local.close();
    }

    const dir = mkdtempSync(join(tmpdir(), "rq-bin-mcp-"));
    const port = 10000 + Math.floor(Math.random() * 20000);
    const serve = Bun.spawn([bin, "serve"], {
      cwd: dir,
      env: { ...env, PORT: String(port) },
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      await processLog(serve.stdout).until('"msg":"listening"');
      const base = `http://127.0.0.1:${port}`;
      const signup = await fetch(`${base}/api/v1/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "mcp@example.com", password: "correct horse battery" }),
      });
      const cookie = signup.headers.get("set-cookie")!.split(";")[0]!;
      const created = await fetch(`${base}/api/console/keys`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: "{}",
      });
      const { key } = (await created.json()) as { key: string };
      const remote = await mcpSession(["--server", base], { PATH: "/usr/bin:/bin", RQ_API_KEY: key }, [bin]);
      try {
        expect((await remote.client.listTools()).tools.map((t) => t.name)).toEqual(["research"]);
        const r = await remote.client.callTool(ask);
        expect(r.structuredContent).toMatchObject({ status: "ok", answer: "Base editors change one DNA letter [S1]." });
        const usage = await fetch(`${base}/api/console/usage`, { headers: { cookie } });
        expect(((await usage.json()) as { allowance: { used: number } }).allowance.used).toBe(1);
      } finally {
        await remote.close();
      }
    } finally {
      serve.kill("SIGTERM");
      await serve.exited;
    }
  });
});
