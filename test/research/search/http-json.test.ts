import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_BODY_BYTES, providerFetch } from "../../../src/research/search/http-json.ts";
import type { SearchError } from "../../../src/research/search/search-error.ts";

// A tiny upstream with the misbehaviours a provider call must survive.
let server: ReturnType<typeof Bun.serve>;
let base = "";
// Settled each time /hang is asked for, so a test can act once the call is being held.
let hangAsked = Promise.withResolvers<void>();
beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/ok")
        return Response.json({ ua: req.headers.get("user-agent"), accept: req.headers.get("accept") });
      if (path === "/hang") {
        hangAsked.resolve();
        return new Promise<Response>(() => {});
      }
      // Headers at once, then a body that never ends.
      if (path === "/stall")
        return new Response(
          new ReadableStream({
            start(c) {
              c.enqueue(new TextEncoder().encode('{"results":['));
            },
          }),
          { headers: { "content-type": "application/json" } },
        );
      if (path === "/huge") {
        let sent = 0;
        const chunk = new Uint8Array(256 * 1024).fill(0x20);
        return new Response(
          new ReadableStream({
            pull(c) {
              if (sent > MAX_BODY_BYTES * 2) c.close();
              else {
                sent += chunk.byteLength;
                c.enqueue(chunk);
              }
            },
          }),
        );
      }
      if (path === "/429") return new Response("slow down", { status: 429 });
      // OpenAI-style APIs echo the key they refused.
      if (path === "/echo-key")
        return Response.json(
          {
            error: {
              message: `Incorrect API key provided: ${req.headers.get("x-api-key")}.`,
              type: "invalid_request_error",
              code: "invalid_api_key",
            },
          },
          { status: 401 },
        );
      if (path === "/leaky")
        return new Response(
          `denied for api_key=abc123secretvalue, Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig-1234 from 4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a`,
          { status: 403 },
        );
      // Flask labels a bare reason phrase text/html.
      if (path === "/flask-429")
        return new Response("  Too Many\n\n Requests  ", {
          status: 429,
          headers: { "content-type": "text/html; charset=utf-8" },
        });
      // An error body that never ends: only a reader that stops at its cap gets any text out of it.
      if (path === "/endless-error")
        return new Response(
          new ReadableStream({
            pull(c) {
              c.enqueue(new TextEncoder().encode("slow down ".repeat(100)));
            },
          }),
          { status: 429 },
        );
      if (path === "/cut-json")
        return new Response(`{"error":{"message":"${"x".repeat(20_000)}"}}`, {
          status: 400,
          headers: { "content-type": "application/json" },
        });
      if (path === "/stall-error")
        return new Response(
          new ReadableStream({
            start(c) {
              c.enqueue(new TextEncoder().encode("Service "));
            },
          }),
          { status: 503 },
        );
      return new Response("{not json", { headers: { "content-type": "application/json" } });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.stop(true));

const run = () => AbortSignal.timeout(20_000);
const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a SearchError");
    },
    (e: unknown) => e as SearchError,
  );

test("sends the user agent and parses JSON", async () => {
  expect(await providerFetch("t", `${base}/ok`, { signal: run() })).toEqual({
    ua: "research-query/0.1",
    accept: "application/json",
  });
});

test("non-2xx is http_status with the status; broken JSON is bad_payload", async () => {
  expect(await fail(providerFetch("t", `${base}/429`, { signal: run() }))).toMatchObject({
    name: "SearchError",
    provider: "t",
    reason: "http_status",
    status: 429,
  });
  expect(await fail(providerFetch("t", `${base}/broken`, { signal: run() }))).toMatchObject({ reason: "bad_payload" });
});

test("no headers in time, or a body that stalls, is timeout", async () => {
  const [hang, stall] = await Promise.all(
    [`${base}/hang`, `${base}/stall`].map((u) => fail(providerFetch("t", u, { signal: run(), timeoutMs: 50 }))),
  );
  expect(hang).toMatchObject({ reason: "timeout" });
  expect(stall).toMatchObject({ reason: "timeout" });
});

test("the caller's abort wins over the provider timeout and reads as aborted", async () => {
  const ac = new AbortController();
  hangAsked = Promise.withResolvers<void>();
  const p = fail(providerFetch("t", `${base}/hang`, { signal: ac.signal, timeoutMs: 60_000 }));
  await hangAsked.promise;
  ac.abort();
  expect(await p).toMatchObject({ reason: "aborted" });
});

test("a refused connection is network", async () => {
  const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const url = `http://127.0.0.1:${closed.port}/`;
  closed.stop(true);
  expect(await fail(providerFetch("t", url, { signal: run() }))).toMatchObject({ reason: "network" });
});

test("an endless body is cut at the size cap", async () => {
  const e = await fail(providerFetch("t", `${base}/huge`, { signal: run(), as: "text" }));
  expect(e).toMatchObject({ reason: "bad_payload" });
  expect(e.message).toContain("larger than");
});

describe("an error body gives the upstream's words", () => {
  const said = (path: string, o: { timeoutMs?: number; headers?: Record<string, string> } = {}) =>
    fail(providerFetch("t", `${base}${path}`, { signal: run(), ...o }));

  test("plain text is kept on one line, even labelled text/html", async () => {
    expect(await said("/429")).toMatchObject({ status: 429, message: "t: HTTP 429: slow down", detail: "slow down" });
    expect(await said("/flask-429")).toMatchObject({ message: "t: HTTP 429: Too Many Requests" });
  });

  test("a key the upstream echoes back is masked, and so is anything shaped like a credential", async () => {
    const key = "sk-proj-Abc123Def456Ghi789";
    const e = await said("/echo-key", { headers: { "x-api-key": key } });
    expect(e.message).toBe("t: HTTP 401: Incorrect API key provided: [redacted].");
    const leaky = await said("/leaky");
    for (const secret of ["abc123secretvalue", "eyJhbGciOiJIUzI1NiJ9", "4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a"])
      expect(leaky.message).not.toContain(secret);
    expect(leaky.message).toStartWith("t: HTTP 403: denied for api_key=[redacted]");
  });

  test("an endless body is read only to the cap and its text cut near 200 characters; a JSON error cut by the cap says nothing", async () => {
    const long = await said("/endless-error", { timeoutMs: 5_000 });
    expect(long.detail!.length).toBeLessThanOrEqual(200);
    expect(long.detail).toStartWith("slow down slow down");
    expect(long.detail).toEndWith("…");
    expect(await said("/cut-json")).toMatchObject({ status: 400, message: "t: HTTP 400", detail: undefined });
  });

  test("an error body that never ends costs no more than the timeout and still reports the status", async () => {
    expect(await said("/stall-error", { timeoutMs: 50 })).toMatchObject({
      reason: "http_status",
      status: 503,
      message: "t: HTTP 503",
    });
  });
});
