import { afterEach, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import OpenAI, { type APIError } from "openai";
import { remoteBackend } from "../../src/mcp/remote-backend.ts";
import { type RunningFront, startFront } from "../../src/openai/front-server.ts";
import { createLogger } from "../../src/util/logger.ts";
import { type Script, scriptedEngine } from "../helpers/scripted-engine.ts";
import { type Client, keyedClient, startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

const messages = [{ role: "user" as const, content: "How do base editors avoid double-strand breaks?" }];
let stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.reverse()) await stop();
  stops = [];
});

/** A server whose runs follow `script`, and a front over it on real sockets, its log kept. */
async function frontOver(script: Script, o: { keepAliveMs?: number; idleTimeoutSec?: number } = {}) {
  const srv: TestServer = startTestServer({ engine: scriptedEngine(script), env: { PLAN_RUNS_FREE: "10" } });
  const { c, key } = await keyedClient(srv.url);
  const lines: string[] = [];
  const front: RunningFront = startFront({
    host: "127.0.0.1",
    port: 0,
    mode: "remote",
    backendFor: (apiKey) => remoteBackend({ base: srv.url, apiKey, userAgent: "test" }),
    logger: createLogger("info", (l) => lines.push(l)),
    ...o,
  });
  stops.push(
    () => srv.stop(100),
    () => front.stop(1000),
  );
  const sdk = new OpenAI({ apiKey: key, baseURL: `${front.url}/v1`, maxRetries: 0 });
  return { c, key, front, sdk, lines };
}

const post = (front: RunningFront, key: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(`${front.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify({ model: "x", messages, stream: true }),
    signal,
  });

/** Reads a stream's text until `needle` has arrived. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, needle: string, text = "") {
  const dec = new TextDecoder();
  while (!text.includes(needle)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`stream ended before "${needle}":\n${text}`);
    text += dec.decode(value, { stream: true });
  }
  return text;
}

const consoleStatus = async (c: Client) => {
  for (;;) {
    const usage = (await (await c.req("GET", "/api/console/usage")).json()) as { recent: { status: string }[] };
    const status = usage.recent[0]?.status ?? "running";
    if (status !== "running") return status;
    await Bun.sleep(50); // polled for, bounded by the test's timeout
  }
};

describe("openai front: a long run, a failed one, a client that leaves", () => {
  test("a quiet run keeps its connection: keep-alive comments past Bun's idle timeout, then the answer", async () => {
    const gate = Promise.withResolvers<void>();
    const { key, front } = await frontOver({ gate: gate.promise }, { keepAliveMs: 10_000, idleTimeoutSec: 1 });
    const res = await post(front, key);
    const reader = res.body!.getReader();
    // Bun closes a connection idle past 1 s on its next tick (about 4 s here): the first
    // comment, 10 s in, reaches the client only if the call was held.
    let text = await readUntil(reader, ": keep-alive\n\n");
    expect(text).toContain('"reasoning_content":"writing: writing\\n"');
    gate.resolve();
    text = await readUntil(reader, "data: [DONE]\n\n", text);
    expect(text).toContain('"content":"Answer text [S1].');
  });

  test("a run that fails mid-stream is an APIError the SDK raises, never a cut answer", async () => {
    const { sdk } = await frontOver({ failWith: "llm_failed" });
    const stream = await sdk.chat.completions.create({ model: "x", messages, stream: true });
    let reasoning = "";
    const e = await (async () => {
      for await (const chunk of stream)
        reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? "";
    })().then(
      () => null,
      (x: unknown) => x as APIError,
    );
    expect(reasoning).toContain("searching: ");
    expect(e).toBeInstanceOf(OpenAI.APIError);
    expect([e!.code, e!.type]).toEqual(["llm_failed", "server_error"]);
    expect(e!.message).toContain("scripted llm_failed");
    // Not streamed: 502 with the run's code, and the SDK told not to charge another run.
    const r = await sdk.chat.completions.create({ model: "x", messages }).then(
      () => null,
      (x: unknown) => x as APIError,
    );
    expect([r!.status, r!.code, r!.headers?.get("x-should-retry")]).toEqual([502, "llm_failed", "false"]);
  });

  test("a client that disconnects costs one run, which ends and is recorded; its retry with the same Idempotency-Key rejoins it", async () => {
    const gate = Promise.withResolvers<void>();
    const { c, key, front, lines } = await frontOver({ gate: gate.promise });
    const leave = new AbortController();
    const res = await post(front, key, { "idempotency-key": "chat-42" }, leave.signal);
    await readUntil(res.body!.getReader(), "writing: writing");
    leave.abort();
    // The run is let go once the front has seen the client leave, not before: else its answer may win the race.
    while (!lines.some((l) => l.includes('"msg":"chat_client_left"'))) await Bun.sleep(10);
    gate.resolve();
    expect(await consoleStatus(c)).toBe("ok");
    expect(await c.used()).toBe(1);
    const again = await readUntil(
      (await post(front, key, { "idempotency-key": "chat-42" })).body!.getReader(),
      "data: [DONE]",
    );
    expect(again).toContain('"content":"Answer text [S1].');
    expect(await c.used()).toBe(1);
    expect(lines.join("\n")).toContain('"client":"gone"');
  });

  test("a refused call's connection is closed by the idle timeout: only an accepted run holds one", async () => {
    const { front } = await frontOver({}, { idleTimeoutSec: 1 });
    const body = JSON.stringify({ messages, stream: true });
    const { port } = new URL(front.url);
    const sock = connect(Number(port), "127.0.0.1");
    sock.on("error", () => {});
    const closed = new Promise<void>((r) => sock.on("close", () => r()));
    let answer = "";
    sock.on("data", (d) => {
      answer += d.toString();
    });
    sock.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer rq-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    // Bun checks idle connections on a coarse tick: the close is waited for as an event.
    await closed;
    expect(answer).toStartWith("HTTP/1.1 401");
    expect(answer).toContain('"code":"invalid_api_key"');
  });
});
