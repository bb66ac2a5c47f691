import { afterEach, describe, expect, test } from "bun:test";
import { createGroqClient } from "../../src/research/llm/groq.ts";
import { LlmError } from "../../src/research/llm/llm-error.ts";
import { createOpenAiCompatibleClient } from "../../src/research/llm/openai-compatible.ts";
import { createThinkFilter, stripThinking } from "../../src/research/llm/think-filter.ts";
import type { LlmClient } from "../../src/research/llm/types.ts";
import { startChatServer, type ChatServer, type Reply } from "../fixtures/chat-server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

const fast = { retries: 3, baseDelayMs: 10, maxDelayMs: 2000 };
let srv: ChatServer | undefined;
afterEach(() => srv?.stop());

const clients = (s: ChatServer): [string, LlmClient][] => [
  ["groq", createGroqClient({ apiKey: "gsk_test", baseUrl: s.groqBase, retry: fast })],
  ["openai-compatible", createOpenAiCompatibleClient({ baseUrl: s.openaiBase, apiKey: "sk-local", retry: fast })],
];
const msgs = [{ role: "user" as const, content: "hi" }];

describe("LLM clients over real HTTP", () => {
  test("non-streaming and streaming answers, on both providers' paths", async () => {
    srv = startChatServer(() => ({ text: "Hello from the model [S1]." }));
    for (const [name, c] of clients(srv)) {
      expect((await c.chat({ model: "m", messages: msgs, signal: AbortSignal.timeout(5000) })).text, name).toBe("Hello from the model [S1].");
      const deltas: string[] = [];
      const r = await c.chat({ model: "m", messages: msgs, signal: AbortSignal.timeout(5000), onDelta: (d) => deltas.push(d) });
      expect(r.text).toBe("Hello from the model [S1].");
      expect(deltas.length).toBeGreaterThan(2);
      expect(deltas.join("")).toBe(r.text);
    }
    expect(srv.requests.map((r) => r.path)).toEqual(["/openai/v1/chat/completions", "/openai/v1/chat/completions", "/v1/chat/completions", "/v1/chat/completions"]);
    expect(srv.requests[0]!.headers.get("authorization")).toBe("Bearer gsk_test");
    expect(srv.requests[2]!.headers.get("authorization")).toBe("Bearer sk-local");
  });

  test("429 with Retry-After, then success; the wait honours Retry-After", async () => {
    srv = startChatServer((_b, n) => (n % 2 === 1 ? { status: 429, retryAfter: "1" } : { text: "ok" }));
    for (const [name, c] of clients(srv)) {
      const t0 = performance.now();
      expect((await c.chat({ model: "m", messages: msgs, signal: AbortSignal.timeout(10_000) })).text, name).toBe("ok");
      expect(performance.now() - t0, name).toBeGreaterThanOrEqual(900);
    }
  });

  test("repeated 500s → LlmError after the retries (4 attempts)", async () => {
    srv = startChatServer(() => ({ status: 500 }));
    for (const [name, c] of clients(srv)) {
      const before = srv.requests.length;
      const e = await c.chat({ model: "m", messages: msgs, signal: AbortSignal.timeout(10_000) }).catch((x) => x);
      expect(e, name).toBeInstanceOf(LlmError);
      expect(e.status).toBe(500);
      expect(srv.requests.length - before).toBe(4);
    }
  });

  test("400 is not retried; an abort ends a hanging call as aborted", async () => {
    srv = startChatServer((b) => (b.model === "bad" ? { status: 400 } : { hang: true }));
    for (const [, c] of clients(srv)) {
      const before = srv.requests.length;
      await c.chat({ model: "bad", messages: msgs, signal: AbortSignal.timeout(5000) }).catch(() => {});
      expect(srv.requests.length - before).toBe(1);
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 100);
      const e = await c.chat({ model: "m", messages: msgs, signal: ac.signal }).catch((x) => x);
      expect(e).toBeInstanceOf(LlmError);
      expect(e.reason).toBe("aborted");
    }
  });
});

describe("<think> blocks", () => {
  test("stripThinking removes closed and unterminated blocks", () => {
    expect(stripThinking("<think>plan plan</think>\n\nAnswer [S1].")).toBe("Answer [S1].");
    expect(stripThinking("<think>never closed")).toBe("");
  });

  test("the streaming filter suppresses think text even when tags split across chunks", () => {
    const out: string[] = [];
    const f = createThinkFilter((t) => out.push(t));
    for (const c of ["<th", "ink>secret reasoning</thi", "nk>\n\nThe ans", "wer <b>is</b> here [S1]."]) f.push(c);
    f.end();
    expect(out.join("")).toBe("The answer <b>is</b> here [S1].");
  });
});
