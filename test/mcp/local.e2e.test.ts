import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { EnvelopeSchema } from "../../src/contract/envelope.ts";
import { ARTICLE_PARAGRAPHS, type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";
import { closedPort } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { type McpSession, mcpSession, textOf } from "./mcp-client.ts";

useLongTimeout();

let pages: PageServer, search: SearchFixtures, mcp: McpSession;
const env = () => ({
  SEARXNG_URL: search.urls.searxng,
  ACADEMIC_PROVIDERS: "none",
  FETCH_ALLOW_PRIVATE: "true",
  DATABASE_PATH: "./none.db",
});

beforeAll(async () => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
  mcp = await mcpSession([], env());
});
afterAll(async () => {
  await mcp.close();
  pages.stop();
  search.stop();
});

describe("mcp (local mode): the engine of this machine as MCP tools", () => {
  test("lists research and extract with their argument and result schemas", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["research", "extract"]);
    const research = tools[0]!;
    expect(research.inputSchema).toMatchObject({
      type: "object",
      properties: { question: { type: "string" } },
      required: ["question"],
    });
    expect(research.outputSchema).toMatchObject({ type: "object", required: expect.arrayContaining(["request_id"]) });
    expect(research.description).toContain("[S1]");
    expect(tools[1]!.inputSchema).toMatchObject({ properties: { url: { type: "string" } }, required: ["url"] });
    expect(tools[1]!.outputSchema).toMatchObject({ required: ["url", "title", "text"] });
  });

  test("research answers from the fixture upstreams: answer and sources as text, the envelope as structured content, progress on the way", async () => {
    const progress: string[] = [];
    const r = await mcp.client.callTool(
      { name: "research", arguments: { question: "How do base editors avoid double-strand breaks?" } },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? "") },
    );
    expect(r.isError).toBeFalsy();
    const env = r.structuredContent as {
      status: string;
      answer: string;
      sources: { id: string; url: string; evidence: { claim: string; quote: string }[] }[];
      verification: { claims: number; supported: number };
    };
    expect(Value.Check(EnvelopeSchema, env)).toBe(true);
    expect(env).toMatchObject({ status: "ok", writer: "extractive" });
    expect(env.answer).toContain("[S1]");
    const text = textOf(r);
    expect(text.startsWith(env.answer)).toBe(true);
    expect(text).toContain("\n\nSources:\n[S1] ");
    for (const s of env.sources) expect(text).toContain(s.url);
    // Claims you can check: each source's quotes under its entry, the same as the envelope's evidence.
    const quotes = env.sources.flatMap((s) => s.evidence);
    expect(quotes.length).toBeGreaterThan(0);
    // An extractive answer's claims are its quotes: each printed once, and counted as quotes, not as claims backed.
    for (const e of quotes) expect(text.split(`> "${e.quote}"`).length - 1).toBe(1);
    expect(text).not.toContain("backs:");
    expect(text).toContain(
      `Quoted verbatim from ${env.sources.length} source${env.sources.length === 1 ? "" : "s"} (no model wrote this answer).`,
    );
    expect(text).not.toContain("claims backed");
    for (const stage of ["planning", "searching", "reading", "writing", "verifying"])
      expect(progress.some((m) => m.startsWith(`${stage}: `))).toBe(true);
    expect(mcp.transportErrors).toEqual([]);
  });

  test("no progress token, no progress notifications; the answer all the same", async () => {
    const seen: unknown[] = [];
    mcp.client.fallbackNotificationHandler = async (n) => {
      seen.push(n);
    };
    const r = await mcp.client.callTool({ name: "research", arguments: { question: "What is base editing?" } });
    expect((r.structuredContent as { status: string }).status).toBe("ok");
    expect(seen).toEqual([]);
  });

  test("extract returns a page's title and main text through the SSRF guard", async () => {
    const r = await mcp.client.callTool({ name: "extract", arguments: { url: pages.url("/article/review") } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ title: "Base editing: a review" });
    expect(textOf(r)).toStartWith("# Base editing: a review\n\n");
    expect(textOf(r)).not.toContain("Most popular");

    const guarded = await mcpSession([], { ...env(), FETCH_ALLOW_PRIVATE: "false" });
    const before = pages.hits("/article/review");
    try {
      const blocked = await guarded.client.callTool({
        name: "extract",
        arguments: { url: pages.url("/article/review") },
      });
      expect(blocked.isError).toBe(true);
      expect(textOf(blocked)).toStartWith("blocked_address: ");
      expect(pages.hits("/article/review")).toBe(before);
    } finally {
      await guarded.close();
    }
  });

  test("bad arguments are error results naming the problem, never protocol errors; an unknown tool is one", async () => {
    for (const [args, message] of [
      [{ question: "   " }, "invalid_request: question must not be empty or only white space"],
      [{ question: "x".repeat(2001) }, "invalid_request: question is too long: 2001 characters, the limit is 2000"],
      [{ question: 5 }, "invalid_request: research takes {question: string}"],
      [{}, "invalid_request: research takes {question: string}"],
    ] as const) {
      const r = await mcp.client.callTool({ name: "research", arguments: args as Record<string, unknown> });
      expect([r.isError, textOf(r)]).toEqual([true, message]);
    }
    const x = await mcp.client.callTool({ name: "extract", arguments: { link: "http://x" } });
    expect([x.isError, textOf(x)]).toEqual([true, "invalid_request: extract takes {url: string}"]);
    await expect(mcp.client.callTool({ name: "summarise", arguments: {} })).rejects.toThrow(/unknown tool: summarise/);
  });

  test("an upstream failure is an error result with the run's code, and the server serves on", async () => {
    const down = await mcpSession([], {
      ...env(),
      SEARXNG_URL: `http://127.0.0.1:${closedPort()}`,
    });
    try {
      const r = await down.client.callTool({ name: "research", arguments: { question: "What is base editing?" } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toStartWith("search_failed: ");
      // What to do next, and that the collections were never searched: this mcp found no database.
      expect(textOf(r)).toContain("What to do: check this machine's network or proxy");
      expect(textOf(r)).toContain("no database at ");
      expect(r.structuredContent).toMatchObject({ status: "error", answer: null, errors: [{ code: "search_failed" }] });
      expect((await down.client.listTools()).tools).toHaveLength(2);
    } finally {
      await down.close();
    }
  });

  test("started from a client's folder with no database and nothing to search: says so at start (stderr) and in the result", async () => {
    const bare = await mcpSession([], { ACADEMIC_PROVIDERS: "none", DATABASE_PATH: "rq.db" });
    try {
      const r = await bare.client.callTool({ name: "research", arguments: { question: "What is base editing?" } });
      expect(r.isError).toBe(true);
      const text = textOf(r);
      expect(text).toStartWith("search_unavailable: nothing can search");
      for (const fix of ["SEARXNG_URL", "BRAVE_API_KEY", "TAVILY_API_KEY", "ACADEMIC_PROVIDERS=none", "corpus add"])
        expect(text).toContain(fix);
      expect(text).toMatch(/note: no database at \/.+\/rq\.db \(DATABASE_PATH\)/);
      const warning = bare
        .stderr()
        .split("\n")
        .find((l) => l.includes('"msg":"mcp_no_database"'));
      expect(warning).toBeDefined();
      expect(JSON.parse(warning!)).toMatchObject({ level: "warn", path: expect.stringMatching(/\/rq\.db$/) });
      expect(warning).toContain("DATABASE_PATH");
      // What the engine lacks, as serve says it at start.
      expect(bare.stderr()).toContain('"msg":"no_web_search"');
      expect(bare.stderr()).toContain('"msg":"no_llm"');
    } finally {
      await bare.close();
    }
  });

  test("cancellation stops waiting and the run; the server answers the next call", async () => {
    search.setMode("searxng", "hang");
    try {
      const stop = new AbortController();
      const call = mcp.client.callTool(
        { name: "research", arguments: { question: "Which base editor is best?" } },
        undefined,
        {
          signal: stop.signal,
          onprogress: (p) => {
            if (p.message?.startsWith("searching")) stop.abort("the user pressed stop");
          },
        },
      );
      await expect(call).rejects.toThrow();
      // The run itself stopped (nobody could read it later): its run_end line says so.
      while (!mcp.stderr().includes('"code":"interrupted"')) await Bun.sleep(50); // bounded by the test's timeout
      expect(mcp.stderr()).toContain('"status":"error","code":"interrupted"');
    } finally {
      search.setMode("searxng", "ok");
    }
    const again = await mcp.client.callTool({ name: "research", arguments: { question: "What is base editing?" } });
    expect((again.structuredContent as { status: string }).status).toBe("ok");
    expect(mcp.transportErrors).toEqual([]);
  });

  test("logs go to stderr; stdout carried only protocol messages", async () => {
    expect(mcp.stderr()).toContain('"msg":"mcp_ready"');
    expect(mcp.stderr()).toContain('"mode":"local"');
    expect(mcp.transportErrors).toEqual([]);
    expect(ARTICLE_PARAGRAPHS.length).toBeGreaterThan(0);
  });
});
