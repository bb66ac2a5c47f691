import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cli } from "../cli/run-cli.ts";
import { type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { keyedClient, startTestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { type FrontProcess, spawnFront } from "./front-process.ts";

useLongTimeout();

let pages: PageServer, search: SearchFixtures, front: FrontProcess;
const env = () => ({
  SEARXNG_URL: search.urls.searxng,
  ACADEMIC_PROVIDERS: "none",
  FETCH_ALLOW_PRIVATE: "true",
  DATABASE_PATH: "./none.db",
});

beforeAll(async () => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
  front = await spawnFront([], env());
});
afterAll(async () => {
  await front.stop();
  pages.stop();
  search.stop();
});

const messages = [
  { role: "user" as const, content: "What is CRISPR?" },
  { role: "assistant" as const, content: "An earlier answer, not researched again." },
  {
    role: "user" as const,
    content: [{ type: "text" as const, text: "How do base editors avoid double-strand breaks?" }],
  },
];

describe("openai (local mode): this machine's engine behind OpenAI's chat completions", () => {
  test("answers with no key, streamed and not, from the last user message", async () => {
    const sdk = front.sdk("not-checked-locally");
    const r = await sdk.chat.completions.create({ model: "gpt-4o-mini", messages });
    expect(r.model).toBe("research-query");
    expect(r.choices[0]!.message.content).toContain("double-strand breaks");
    expect(r.choices[0]!.message.content).toContain("**Sources**\n\n1. [");
    let content = "";
    let reasoning = "";
    for await (const chunk of await sdk.chat.completions.create({ model: "x", messages, stream: true })) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      content += delta?.content ?? "";
      reasoning += delta?.reasoning_content ?? "";
    }
    expect(reasoning).toContain("writing: ");
    expect(content).toContain("**Sources**");
    const log = await front.out.until('"stream":true');
    expect(log).toContain('"msg":"listening"');
    expect(log).toContain('"mode":"local"');
  });

  test("/healthz answers; an unknown path is OpenAI's 404; a question over 2,000 code points is 400", async () => {
    const health = await fetch(`${front.url}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: "ok", mode: "local", in_flight: 0 }]);
    const none = await fetch(`${front.url}/v1/embeddings`, { method: "POST" });
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error: { type: "invalid_request_error", code: "not_found" } });
    const long = await fetch(`${front.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ messages: [{ role: "user", content: "é".repeat(2001) }] }),
    });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: { message: string } }).error.message).toContain("the limit is 2000");
    // A long conversation is read whole (past the API's 64 KB), up to 4 MB.
    const history = Array.from({ length: 100 }, () => ({ role: "assistant", content: "x".repeat(1000) }));
    const read = await fetch(`${front.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ messages: history }),
    });
    expect(read.status).toBe(400);
    expect(((await read.json()) as { error: { message: string } }).error.message).toContain('has role "assistant"');
    const huge = await fetch(`${front.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ messages: [{ role: "user", content: "x".repeat(4 * 1024 * 1024) }] }),
    });
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as { error: { message: string } }).error.message).toContain("limit 4194304 bytes");
  });
});

describe("openai, the command", () => {
  test("--help names the routes and flags; bad flags are refused by name", async () => {
    const help = await cli(["openai", "--help"]);
    expect(help.code).toBe(0);
    for (const s of ["--server URL", "--host H", "--port P", "/v1/chat/completions", "reasoning_content"])
      expect(help.out).toContain(s);
    const unknown = await cli(["openai", "--sever", "http://x"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("--sever");
    const port = await cli(["openai", "--port", "eighty"]);
    expect([port.code, port.err.includes("--port must be a port number")]).toEqual([2, true]);
    const server = await cli(["openai", "--server", "ftp://x"]);
    expect([server.code, server.err.includes("--server must be an http(s) address")]).toEqual([2, true]);
  });

  test("local mode on an address other than loopback says who can reach it", async () => {
    const open = await spawnFront(["--host", "0.0.0.0"], env());
    try {
      expect(await open.out.until('"msg":"openai_open_local"')).toContain("local mode asks for no key");
    } finally {
      await open.stop();
    }
  });

  test("SIGTERM drains: a stream in flight ends with its answer and [DONE], then the process exits 0", async () => {
    const gate = Promise.withResolvers<void>();
    const srv = startTestServer({ engine: scriptedEngine({ gate: gate.promise }), env: { PLAN_RUNS_FREE: "10" } });
    const { c, key } = await keyedClient(srv.url);
    const f = await spawnFront(["--server", srv.url]);
    try {
      const stream = await f.sdk(key).chat.completions.create({ model: "x", messages, stream: true });
      let content = "";
      let signalled = false;
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
        if (!signalled && delta?.reasoning_content?.startsWith("writing")) {
          signalled = true;
          f.proc.kill("SIGTERM");
          await f.out.until('"msg":"shutting_down"');
          gate.resolve();
        }
        content += delta?.content ?? "";
      }
      expect(signalled).toBe(true);
      expect(content).toStartWith("Answer text [S1].");
      expect(await f.proc.exited).toBe(0);
      expect(await f.out.rest()).toContain('"msg":"stopped"');
      expect(await c.used()).toBe(1);
    } finally {
      gate.resolve();
      f.proc.kill();
      await srv.stop(100);
    }
  });
});
