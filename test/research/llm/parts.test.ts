import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/config/load.ts";
import { buildLlm } from "../../../src/research/llm/factory.ts";
import { parseRetryAfter } from "../../../src/research/llm/llm-error.ts";
import { DEFAULT_RETRY, retryDelay } from "../../../src/research/llm/retry.ts";
import { sseEvents } from "../../../src/research/llm/sse-events.ts";
import { createThinkFilter, stripThinking } from "../../../src/research/llm/think-filter.ts";

describe("<think> blocks", () => {
  test("stripThinking removes closed, unterminated and opening-less blocks", () => {
    expect(stripThinking("<think>plan plan</think>\n\nAnswer [S1].")).toBe("Answer [S1].");
    expect(stripThinking("<think>never closed")).toBe("");
    expect(stripThinking("Intro <THINK>x</THINK>text")).toBe("Intro text");
    expect(stripThinking("reasoning the server did not open</think>\nAnswer.")).toBe("Answer.");
    expect(stripThinking("Plain answer with <b>tags</b>.")).toBe("Plain answer with <b>tags</b>.");
  });

  test("the streaming filter suppresses think text even when tags split across chunks", () => {
    const out: string[] = [];
    const f = createThinkFilter((t) => out.push(t));
    for (const c of ["<th", "ink>secret reasoning</thi", "nk>\n\nThe ans", "wer <b>is</b> here [S1] <", "3."])
      f.push(c);
    f.end();
    expect(out.join("")).toBe("The answer <b>is</b> here [S1] <3.");
    expect(out.join("")).not.toContain("secret");
  });

  test("the streaming filter, one character at a time, matches stripThinking", () => {
    const text = "<think>a < b </think>Result: x<y and <thin>k</thin> end<think>late thought</think>.";
    const out: string[] = [];
    const f = createThinkFilter((t) => out.push(t));
    for (const ch of text) f.push(ch);
    f.end();
    expect(out.join("")).toBe(stripThinking(text));
    expect(out.join("")).toBe("Result: x<y and <thin>k</thin> end.");
  });
});

describe("SSE events", () => {
  const body = (parts: string[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(new TextEncoder().encode(p));
        c.close();
      },
    });
  const all = async (parts: string[]) => {
    const out: string[] = [];
    for await (const e of sseEvents(body(parts))) out.push(e.event ? `${e.event}=${e.data}` : e.data);
    return out;
  };

  test("split across chunks, CRLF, comments, ids and event names; [DONE] is passed on for the reader", async () => {
    expect(
      await all(['data: {"a"', ":1}\r\n\r", "\n: keep-alive\n\nid: 7\nevent: x\ndata: 2\n\n", "data: [DONE]\n\n"]),
    ).toEqual(['{"a":1}', "x=2", "[DONE]"]);
  });

  test("multi-line data joins with a newline; a last event without a blank line still counts", async () => {
    expect(await all(["data: a\ndata: b\n\n", "data:c"])).toEqual(["a\nb", "c"]);
  });

  test("llama.cpp's non-SSE `error:` line and an empty `event: error` come out as error events", async () => {
    expect(await all(['data: {"x":1}\n\nerror: {"detail":"failed to decode"}\n'])).toEqual([
      '{"x":1}',
      'error={"detail":"failed to decode"}',
    ]);
    expect(await all(["event: error\n\n"])).toEqual(["error="]);
  });
});

describe("retry timing rules", () => {
  test("Retry-After: seconds, HTTP date, garbage", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  test("backoff doubles with jitter and a cap; Retry-After wins, unless it asks longer than the policy waits", () => {
    const p = { ...DEFAULT_RETRY, baseDelayMs: 250, maxDelayMs: 4000, maxRetryAfterMs: 20_000 };
    expect(retryDelay(p, 0, undefined, 0.5)).toBe(250);
    expect(retryDelay(p, 2, undefined, 0.5)).toBe(1000);
    expect(retryDelay(p, 0, undefined, 0)).toBe(188);
    expect(retryDelay(p, 0, undefined, 1)).toBe(313);
    expect(retryDelay(p, 10, undefined, 0.5)).toBe(4000);
    expect(retryDelay(p, 0, 5000, 0.5)).toBe(5000);
    expect(retryDelay(p, 0, 20_000, 0.5)).toBe(20_000);
    expect(retryDelay(p, 0, 20_001, 0.5)).toBeNull();
  });
});

describe("buildLlm", () => {
  const cfg = (env: Record<string, string>) => loadConfig({ DATABASE_PATH: ":memory:", ...env }, "/nonexistent");

  test("Groq when GROQ_API_KEY is set, else an OpenAI-compatible server, else none", () => {
    const groq = buildLlm(cfg({ GROQ_API_KEY: "gsk_x", OPENAI_BASE_URL: "http://127.0.0.1:1/v1" }));
    expect(groq?.client.provider).toBe("groq");
    expect([groq?.model, groq?.fastModel]).toEqual(["openai/gpt-oss-120b", "openai/gpt-oss-20b"]);
    const local = buildLlm(
      cfg({ OPENAI_BASE_URL: "http://127.0.0.1:1/v1", LLM_MODEL: "qwen3", LLM_FAST_MODEL: "qwen3:4b" }),
    );
    expect([local?.client.provider, local?.model, local?.fastModel]).toEqual(["openai", "qwen3", "qwen3:4b"]);
    expect(buildLlm(cfg({}))).toBeNull();
  });
});
