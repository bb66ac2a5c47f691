import { afterEach, describe, expect, test } from "bun:test";
import { abortableSleep } from "../../../src/research/llm/deadline.ts";
import { createGroqClient } from "../../../src/research/llm/groq.ts";
import { LlmError } from "../../../src/research/llm/llm-error.ts";
import { createOpenAiCompatibleClient } from "../../../src/research/llm/openai-compatible.ts";
import { DEFAULT_RETRY } from "../../../src/research/llm/retry.ts";
import { type ChatBody, type ChatServer, type Reply, sequence, startChatServer } from "../../fixtures/chat-server.ts";
import { groqRateLimitBody, groqTooLargeBody, tokenWindow } from "../../fixtures/groq-limits.ts";
import { bothClients, HI, recordingPolicy } from "../../helpers/llm-clients.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

let srv: ChatServer | undefined;
afterEach(() => srv?.stop());

/** One streamed call per client, each against a fresh server scripted by `reply`: the error or text, the deltas, the calls made. */
async function streamed(reply: Reply | ((b: ChatBody, n: number) => Reply), policy = recordingPolicy) {
  const out: { name: string; e: any; text?: string; deltas: string; calls: number; waits: number[] }[] = [];
  for (const name of ["groq", "openai-compatible"]) {
    srv?.stop();
    srv = startChatServer(typeof reply === "function" ? reply : () => reply);
    const retry = policy();
    const [, c] = bothClients(srv, retry).find(([n]) => n === name)!;
    const before = srv.requests.length;
    let deltas = "";
    const p = await c
      .chat({
        model: "m",
        messages: HI,
        maxTokens: 900,
        signal: AbortSignal.timeout(10_000),
        onDelta: (d) => (deltas += d),
      })
      .then(
        (r) => ({ e: null, text: r.text }),
        (e) => ({ e, text: undefined }),
      );
    out.push({ name, ...p, deltas, calls: srv.requests.length - before, waits: "waits" in retry ? retry.waits : [] });
  }
  return out;
}

describe("an answer counts only when the model finished it", () => {
  test("llama.cpp's `error:` line after half an answer is a failure with its reason, not an answer", async () => {
    const rs = await streamed({
      text: "Half of an answer that never",
      chunkChars: 5,
      errorAfterChunks: 3,
      errorAs: "line",
      errorPayload: { detail: "failed to decode the batch, n_tokens = 512" },
    });
    for (const r of rs) {
      expect(r.e, r.name).toBeInstanceOf(LlmError);
      expect(r.e.message, r.name).toContain("failed to decode the batch");
      expect(r.deltas, r.name).toBe("Half of an answ");
      expect(r.calls, r.name).toBe(1);
    }
  });

  test("finish_reason length: final, and says the budget went on reasoning when no text came", async () => {
    for (const text of ["", "The answer begins and"]) {
      const rs = await streamed({ reasoning: "Let me think about this at length. ".repeat(5), text, finish: "length" });
      for (const r of rs) {
        expect(r.e?.reason, r.name).toBe("incomplete");
        expect(r.e.message, r.name).toContain("max_tokens 900");
        expect(r.e.message.includes("reasoning"), r.name).toBe(text === "");
        expect(r.calls, r.name).toBe(1);
      }
    }
  });

  test("a connection closed before the finish: retried while nothing was shown, a failure once text was", async () => {
    const early = await streamed(sequence({ text: "abc", cutAfterChunks: 0 }, { text: "Whole answer." }));
    for (const r of early) {
      expect(r.text, r.name).toBe("Whole answer.");
      expect(r.calls, r.name).toBe(2);
    }
    const late = await streamed({ text: "Cut in the middle of", chunkChars: 4, cutAfterChunks: 2 });
    for (const r of late) {
      expect(r.e?.reason, r.name).toBe("incomplete");
      expect(r.e.message, r.name).toContain("before the answer finished");
      expect(r.calls, r.name).toBe(1);
    }
  });

  test("[DONE] without a finish_reason, or a finish other than stop, is not a whole answer", async () => {
    for (const finish of [null, "content_filter", "tool_calls"]) {
      for (const r of await streamed({ text: "Some text.", finish })) {
        expect(r.e?.reason, `${r.name} ${finish}`).toBe("incomplete");
      }
    }
    // TGI's names for a natural end are one.
    for (const finish of ["eos_token", "stop_sequence"])
      for (const r of await streamed({ text: "Some text.", finish }))
        expect(r.text, `${r.name} ${finish}`).toBe("Some text.");
  });

  test("a whole (non-streamed) answer that stopped at its limit fails too", async () => {
    srv = startChatServer(() => ({ text: '{"kind": "gen', finish: "length" }));
    for (const [name, c] of bothClients(srv, recordingPolicy())) {
      const e = await c.chat({ model: "m", messages: HI, signal: AbortSignal.timeout(5000) }).catch((x) => x);
      expect(e?.reason, name).toBe("incomplete");
    }
  });
});

describe("upstream failures keep their reasons and are retried only when a retry can succeed", () => {
  const groq400 = {
    error: { message: "Failed to generate: the output violated the schema", type: "invalid_request_error" },
  };
  test("Groq's in-stream `event: error` with status_code 400 is not retried (status beside or inside error)", async () => {
    for (const payload of [{ ...groq400, status_code: 400 }, { error: { ...groq400.error, status_code: 400 } }]) {
      const rs = await streamed({ text: "unused", errorAfterChunks: 0, errorAs: "event", errorPayload: payload });
      for (const r of rs) {
        expect(r.e?.status, r.name).toBe(400);
        expect(r.e.message, r.name).toContain("the output violated the schema");
        expect(r.calls, r.name).toBe(1);
      }
    }
  });

  test("an in-stream 503 before any text is retried", async () => {
    const rs = await streamed(
      sequence(
        {
          errorAfterChunks: 0,
          errorAs: "event",
          errorPayload: { error: { message: "over capacity" }, status_code: 503 },
        },
        { text: "Fine now." },
      ),
    );
    for (const r of rs) expect([r.text, r.calls], r.name).toEqual(["Fine now.", 2]);
  });

  const minute = groqRateLimitBody({
    model: "openai/gpt-oss-120b",
    per: "minute",
    limit: 8000,
    used: 6144,
    requested: 6144,
    tryAgain: "14.655s",
  });
  test("a per-minute 429: its message kept (organization masked), the wait it asks honoured, then the answer", async () => {
    const rs = await streamed(sequence({ status: 429, body: minute, retryAfter: "15" }, { text: "ok" }), () =>
      recordingPolicy(),
    );
    for (const r of rs) {
      expect([r.text, r.calls], r.name).toEqual(["ok", 2]);
      expect(r.waits[0], r.name).toBeGreaterThanOrEqual(15_000);
    }
    const policy = recordingPolicy({ retries: 0 });
    srv?.stop();
    srv = startChatServer(() => ({ status: 429, body: minute, retryAfter: "15" }));
    for (const [name, c] of bothClients(srv, policy)) {
      const e = await c.chat({ model: "m", messages: HI, signal: AbortSignal.timeout(5000) }).catch((x) => x);
      expect(e.message, name).toContain("tokens per minute (TPM): Limit 8000, Used 6144, Requested 6144");
      expect(e.message, name).toContain("try again in 14.655s");
      expect(e.message, name).not.toContain("org_01hzfixture");
    }
  });

  test("429s that no wait can fix fail at once: a daily cap, a request larger than the window; 413 too", async () => {
    const daily = groqRateLimitBody({
      model: "openai/gpt-oss-120b",
      per: "day",
      limit: 200000,
      used: 199500,
      requested: 3000,
      tryAgain: "1m2.5s",
    });
    const huge = groqRateLimitBody({
      model: "m",
      per: "minute",
      limit: 7000,
      used: 0,
      requested: 12903,
      tryAgain: "7s",
    });
    const cases: [string, Reply, string][] = [
      ["daily", { status: 429, body: daily, retryAfter: "63" }, "tokens per day (TPD)"],
      ["daily, no Retry-After", { status: 429, body: daily }, "tokens per day (TPD)"],
      ["larger than the window", { status: 429, body: huge, retryAfter: "7" }, "Requested 12903"],
      [
        "413",
        { status: 413, body: groqTooLargeBody({ model: "m", limit: 8000, requested: 12903 }) },
        "Request too large",
      ],
    ];
    for (const [label, reply, says] of cases) {
      const rs = await streamed(reply);
      for (const r of rs) {
        expect(r.e?.message, `${r.name} ${label}`).toContain(says);
        expect(r.calls, `${r.name} ${label}`).toBe(1);
      }
      srv?.stop();
    }
  });

  test("a wait that would end past the run's deadline is not started", async () => {
    srv = startChatServer(() => ({ status: 429, body: minute, retryAfter: "15" }));
    for (const [name, c] of bothClients(srv, recordingPolicy())) {
      const before = srv.requests.length;
      const e = await c
        .chat({ model: "m", messages: HI, signal: AbortSignal.timeout(5000), deadline: Date.now() + 10_000 })
        .catch((x) => x);
      expect(e.message, name).toContain("deadline comes first");
      expect(srv.requests.length - before, name).toBe(1);
    }
  });

  test("secrets an upstream echoes are masked; HTML error pages are not quoted", async () => {
    srv = startChatServer(
      sequence(
        {
          status: 401,
          body: {
            error: {
              message: "Invalid API Key gsk_abcdefghijklmnopqrstuvwxyz0123 for Bearer sk-proj-1234567890abcdef",
            },
          },
        },
        { status: 502, body: "<html><body><h1>502 Bad Gateway</h1></body></html>" },
      ),
    );
    const c = createOpenAiCompatibleClient({ baseUrl: srv.openaiBase, retry: recordingPolicy({ retries: 0 }) });
    const e1 = await c.chat({ model: "m", messages: HI, signal: AbortSignal.timeout(5000) }).catch((x) => x);
    expect(e1.message).toContain("Invalid API Key");
    expect(e1.message).not.toContain("abcdefghij");
    expect(e1.message).not.toContain("1234567890");
    const e2 = await c.chat({ model: "m", messages: HI, signal: AbortSignal.timeout(5000) }).catch((x) => x);
    expect(e2.message).toBe("the LLM server answered HTTP 502 (retries are off)");
  });
});

describe("token windows: calls wait for the window instead of meeting a 429", () => {
  test("two calls of half the window fit it; a third waits for the refill the headers announce", async () => {
    const window = tokenWindow(8000, 3000);
    let refused = 0;
    const counted = {
      admit: (m: string, n: number) => {
        const a = window.admit(m, n);
        if (!a.ok) refused++;
        return a;
      },
    };
    srv = startChatServer(() => ({ text: "ok" }), { window: counted });
    // The client's waits are recorded (and really waited: the fixture's window refills in real time).
    const waits: number[] = [];
    const sleep = (ms: number, signal: AbortSignal) => {
      waits.push(ms);
      return abortableSleep(ms, signal);
    };
    const c = createGroqClient({ apiKey: "gsk_test", baseUrl: srv.groqBase, retry: { ...DEFAULT_RETRY, sleep } });
    const call = () =>
      c.chat({ model: "openai/gpt-oss-120b", messages: HI, maxTokens: 3900, signal: AbortSignal.timeout(30_000) });
    await call();
    await call();
    expect(waits).toEqual([]);
    expect((await call()).text).toBe("ok");
    // ~3,950 tokens at 8,000 per 3 s come back in about 1.5 s: one wait, for the refill.
    expect(waits).toHaveLength(1);
    expect(waits[0]!).toBeGreaterThan(1000);
    expect(waits[0]!).toBeLessThanOrEqual(3000);
    expect(refused).toBe(0);
    expect(srv.requests).toHaveLength(3);
  });

  test("a window that refills only after the deadline fails at once with the numbers", async () => {
    srv = startChatServer(() => ({ text: "ok" }), { window: tokenWindow(8000, 60_000) });
    const c = createGroqClient({ apiKey: "gsk_test", baseUrl: srv.groqBase });
    const call = () =>
      c.chat({
        model: "openai/gpt-oss-120b",
        messages: HI,
        maxTokens: 3900,
        signal: AbortSignal.timeout(10_000),
        deadline: Date.now() + 8_000,
      });
    await call();
    await call();
    const e = await call().catch((x) => x);
    expect(e).toBeInstanceOf(LlmError);
    expect(e.reason).toBe("rate_limited");
    expect(e.message).toMatch(/window has \d+ of 8000 tokens free and this call needs about \d+/);
    expect(srv.requests).toHaveLength(2);
  });
});
