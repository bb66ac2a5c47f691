import { afterAll, beforeAll, expect, test } from "bun:test";
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
