import { afterEach, describe, expect, test } from "bun:test";
import { createGroqClient } from "../../../src/research/llm/groq.ts";
import { LlmError } from "../../../src/research/llm/llm-error.ts";
import { createOpenAiCompatibleClient } from "../../../src/research/llm/openai-compatible.ts";
import type { RetryPolicy } from "../../../src/research/llm/retry.ts";
import { type ChatServer, sequence, startChatServer } from "../../fixtures/chat-server.ts";
import { bothClients, HI, recordingPolicy } from "../../helpers/llm-clients.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

let srv: ChatServer | undefined;
afterEach(() => srv?.stop());

const signal = () => AbortSignal.timeout(10_000);

describe("LLM clients over real HTTP", () => {
  test("non-streaming and streaming answers, on both providers' paths", async () => {
    srv = startChatServer(() => ({ text: "Hello from the model [S1]." }));
    for (const [name, c] of bothClients(srv, recordingPolicy())) {
      expect((await c.chat({ model: "m", messages: HI, signal: signal() })).text, name).toBe(
        "Hello from the model [S1].",
      );
      const deltas: string[] = [];
      const r = await c.chat({ model: "m", messages: HI, signal: signal(), onDelta: (d) => deltas.push(d) });
      expect(r.text).toBe("Hello from the model [S1].");
      expect(deltas.length).toBeGreaterThan(2);
      expect(deltas.join("")).toBe(r.text);
    }
    expect(srv.requests.map((r) => [r.path, r.body.stream ?? false])).toEqual([
      ["/openai/v1/chat/completions", false],
      ["/openai/v1/chat/completions", true],
      ["/v1/chat/completions", false],
      ["/v1/chat/completions", true],
    ]);
    expect(srv.requests[0]!.headers.get("authorization")).toBe("Bearer gsk_test");
    expect(srv.requests[2]!.headers.get("authorization")).toBe("Bearer sk-local");
    expect(srv.requests[3]!.body.messages).toEqual(HI);
  });

  test("429 with Retry-After (seconds or HTTP date), then success: the wait is at least what the server asked", async () => {
    const date = new Date(Date.now() + 5_000).toUTCString();
    srv = startChatServer((_b, n) =>
      n % 3 === 1 ? { status: 429, retryAfter: "2" } : n % 3 === 2 ? { status: 503, retryAfter: date } : { text: "ok" },
    );
    for (const name of ["groq", "openai-compatible"]) {
      const policy = recordingPolicy();
      const client =
        name === "groq"
          ? createGroqClient({ apiKey: "k", baseUrl: srv.groqBase, retry: policy })
          : createOpenAiCompatibleClient({ baseUrl: srv.openaiBase, retry: policy });
      expect((await client.chat({ model: "m", messages: HI, signal: signal() })).text, name).toBe("ok");
      expect(policy.waits).toHaveLength(2);
      expect(policy.waits[0], name).toBeGreaterThanOrEqual(2000);
      expect(policy.waits[1], name).toBeGreaterThanOrEqual(3000); // the date is ~5 s ahead, minus a whole-second rounding
    }
  });

  test("a Retry-After longer than the policy waits fails at once (a retry before it would fail again)", async () => {
    srv = startChatServer(sequence({ status: 429, retryAfter: "3600" }, { text: "ok" }));
    const policy = recordingPolicy({ maxRetryAfterMs: 20_000 });
    const c = createOpenAiCompatibleClient({ baseUrl: srv.openaiBase, retry: policy });
    const e = await c.chat({ model: "m", messages: HI, signal: signal() }).catch((x) => x);
    expect(e).toBeInstanceOf(LlmError);
    expect(e.status).toBe(429);
    expect(e.message).toContain("the wait asked is too long");
    expect(policy.waits).toEqual([]);
    expect(srv.requests).toHaveLength(1);
  });

  test("repeated 500s → llm_failed after 3 retries with growing backoff", async () => {
    srv = startChatServer(() => ({ status: 500 }));
    for (const [name, c] of bothClients(srv, recordingPolicy())) {
      const before = srv.requests.length;
      const e = await c.chat({ model: "m", messages: HI, signal: signal() }).catch((x) => x);
      expect(e, name).toBeInstanceOf(LlmError);
      expect(e.code).toBe("llm_failed");
      expect(e.reason).toBe("http_status");
      expect(e.status).toBe(500);
      expect(srv.requests.length - before, name).toBe(4);
    }
    const policy = recordingPolicy({ baseDelayMs: 100, maxDelayMs: 100_000 });
    await createOpenAiCompatibleClient({ baseUrl: srv.openaiBase, retry: policy })
      .chat({ model: "m", messages: HI, signal: signal() })
      .catch(() => {});
    expect(policy.waits).toHaveLength(3);
    // ±25 % jitter around 100, 200, 400 ms.
    expect(policy.waits[0]!).toBeLessThan(policy.waits[2]!);
  });

  test("a network failure is retried; an unreachable server ends in llm_failed (network)", async () => {
    const dead = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const url = `http://127.0.0.1:${dead.port}/v1`;
    dead.stop(true);
    const policy = recordingPolicy({ retries: 2 });
    const e = await createOpenAiCompatibleClient({ baseUrl: url, retry: policy })
      .chat({ model: "m", messages: HI, signal: signal() })
      .catch((x) => x);
    expect(e).toBeInstanceOf(LlmError);
    expect(e.reason).toBe("network");
    expect(policy.waits).toHaveLength(2);
  });

  test("400 is not retried", async () => {
    srv = startChatServer(() => ({ status: 400 }));
    for (const [name, c] of bothClients(srv, recordingPolicy())) {
      const before = srv.requests.length;
      const e = await c.chat({ model: "m", messages: HI, signal: signal() }).catch((x) => x);
      expect(e.status, name).toBe(400);
      expect(srv.requests.length - before, name).toBe(1);
    }
  });

  test("a stream that fails after deltas were emitted is not retried (it would repeat text)", async () => {
    srv = startChatServer(() => ({ text: "The first part. The second part.", chunkChars: 5, errorAfterChunks: 2 }));
    for (const [name, c] of bothClients(srv, recordingPolicy())) {
      const before = srv.requests.length;
      const deltas: string[] = [];
      const e = await c
        .chat({ model: "m", messages: HI, signal: signal(), onDelta: (d) => deltas.push(d) })
        .catch((x) => x);
      expect(e, name).toBeInstanceOf(LlmError);
      expect(e.reason).not.toBe("aborted");
      expect(deltas.join(""), name).toBe("The first ");
      expect(srv.requests.length - before, name).toBe(1);
    }
  });

  test("an abort ends a hanging call, a stalled stream and a retry wait, as reason aborted", async () => {
    srv = startChatServer((b) =>
      b.model === "hang"
        ? { hang: true }
        : b.model === "stall"
          ? { text: "abcdefghij", chunkChars: 2, hangAfterChunks: 2 }
          : { status: 429, retryAfter: "3600" },
    );
    let ac = new AbortController();
    // The real wait (no injected sleep) of an hour: only the abort can end this test in time.
    // It comes right after the wait has begun (a microtask after onRetry, which runs just before it).
    const realWait: RetryPolicy = {
      retries: 3,
      baseDelayMs: 10,
      maxDelayMs: 100,
      maxRetryAfterMs: 3_600_000,
      onRetry: () => queueMicrotask(() => ac.abort()),
    };
    const s = srv;
    for (const [name, c] of bothClients(s, realWait)) {
      for (const model of ["hang", "stall", "wait"]) {
        ac = new AbortController();
        const deltas: string[] = [];
        const inFlight = s.requests.length;
        // A stalled stream: aborted once both chunks are in and the client waits on the next.
        const p = c.chat({
          model,
          messages: HI,
          signal: ac.signal,
          onDelta: (d) => {
            if (deltas.push(d) === 2) queueMicrotask(() => ac.abort());
          },
        });
        // A hanging call: aborted once the server holds it.
        if (model === "hang") void s.untilRequests(inFlight + 1).then(() => ac.abort());
        const e = await p.catch((x) => x);
        expect(e, `${name} ${model}`).toBeInstanceOf(LlmError);
        expect(e.reason, `${name} ${model}`).toBe("aborted");
        if (model === "stall") expect(deltas.join("")).toBe("abcd");
      }
    }
  }, 10_000);
});
