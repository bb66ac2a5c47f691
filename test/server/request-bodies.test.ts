import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { MAX_BODY_BYTES } from "../../src/contract/query.ts";
import type { RunningServer } from "../../src/server/server.ts";
import { expectEnvelope } from "../helpers/expect-envelope.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { type Client, keyedClient, startTestServer, type TestServer } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";

// Bun answered every body over 4 MB with a bare 413 before any handler: no envelope, no
// request id, no CORS, and before the credential check (credentials → body: src/runs/service.ts).
const HUGE = 5 * 1024 * 1024;
const hugeBody = () => JSON.stringify({ query: "q", pad: "x".repeat(HUGE) });
/** The same body without a Content-Length: streamed in chunks. */
const chunked = () =>
  new ReadableStream<Uint8Array>({
    start(c) {
      const mb = new Uint8Array(1024 * 1024).fill(32);
      c.enqueue(new TextEncoder().encode('{"query":"q","pad":"'));
      for (let i = 0; i < 5; i++) c.enqueue(mb);
      c.close();
    },
  });

let s: TestServer, c: Client, key: string;
beforeAll(async () => {
  s = startTestServer({ engine: scriptedEngine() });
  ({ c, key } = await keyedClient(s.url));
});
afterAll(() => s.stop(100));

const post = (path: string, headers: Record<string, string>, body: BodyInit) =>
  fetch(s.url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

async function expectRefusal(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  const body = (await res.json()) as { errors: { code: string; message: string }[] };
  expect(body.errors[0]!.code).toBe(code);
  return body;
}

describe("request bodies over the limit, on every route", () => {
  for (const [shape, body] of [
    ["with Content-Length", hugeBody],
    ["chunked", chunked],
  ] as const) {
    test(`query endpoints check the key first, then refuse the body (${shape})`, async () => {
      let res = await post("/api/query", {}, body());
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expectEnvelope(await res.clone().json(), { status: "error" });
      await expectRefusal(res, 401, "missing_api_key");
      res = await post("/api/query", { authorization: `Bearer ${key}` }, body());
      const env = await expectRefusal(res, 400, "invalid_request");
      expect(env.errors[0]!.message).toContain(`limit ${MAX_BODY_BYTES} bytes`);
      // The stream endpoint answers a key failure as error + final events (README "The API").
      res = await post("/api/query/stream", {}, body());
      expect(res.status).toBe(200);
      const { events } = await readSse(res);
      expect(events.map((e) => e.event)).toEqual(["error", "final"]);
      expect(events[0]!.data.code).toBe("missing_api_key");
      res = await post("/api/query/stream", { authorization: `Bearer ${key}` }, body());
      await expectRefusal(res, 400, "invalid_request");
      expect(await c.used()).toBe(0);
    });

    test(`account, Console and app-run routes answer with our error body (${shape})`, async () => {
      await expectRefusal(await post("/api/v1/auth/signup", {}, body()), 400, "invalid_request");
      await expectRefusal(await post("/api/v1/auth/login", {}, body()), 400, "invalid_request");
      // Session routes check the session first, as the query endpoints check the key.
      await expectRefusal(await post("/api/console/keys", {}, body()), 401, "unauthorized");
      await expectRefusal(await post("/api/v1/research", {}, body()), 401, "unauthorized");
      await expectRefusal(await post("/api/console/keys", { cookie: c.cookie! }, body()), 400, "invalid_request");
      await expectRefusal(await post("/api/v1/research", { cookie: c.cookie! }, body()), 400, "invalid_request");
    });
  }
});

describe("bodies the Console must refuse", () => {
  test("broken JSON, an array, a string or a form post creates no key", async () => {
    const before = ((await (await c.req("GET", "/api/console/keys")).json()) as { keys: unknown[] }).keys.length;
    for (const [body, type] of [
      ['{"name": "x"', "application/json"],
      ['[{"name": "x"}]', "application/json"],
      ['"x"', "application/json"],
      ["name=x", "application/x-www-form-urlencoded"],
    ] as const) {
      const res = await c.req("POST", "/api/console/keys", undefined, { "content-type": type });
      expect(res.status).toBe(201); // no body at all is still a key without a name
      const bad = await fetch(`${s.url}/api/console/keys`, {
        method: "POST",
        headers: { cookie: c.cookie!, "content-type": type },
        body,
      });
      await expectRefusal(bad, 400, "invalid_request");
    }
    const after = ((await (await c.req("GET", "/api/console/keys")).json()) as { keys: unknown[] }).keys.length;
    expect(after).toBe(before + 4);
  });

  test("a query of only invisible or control characters is refused and not charged", async () => {
    for (const q of ["\u200b\u200b", "\u0001\u0007", "\u2060\ufeff", "\u200d \u200c"]) {
      const res = await post("/api/query", { authorization: `Bearer ${key}` }, JSON.stringify({ query: q }));
      const body = await expectRefusal(res, 400, "invalid_request");
      expect(body.errors[0]!.message).toContain("visible");
    }
    expect(await c.used()).toBe(0);
  });
});

describe("a body that takes too long", () => {
  let slow: RunningServer;
  beforeAll(() => {
    slow = startTestServer({ engine: scriptedEngine(), bodyTimeoutMs: 300, logger: s.deps.logger });
  });
  afterAll(() => slow.stop(100));

  /** Sends headers and half a body over a raw socket, then nothing: the answer it gets (waited for; the test's timeout bounds it). */
  const trickle = (path: string, headers: string) =>
    new Promise<string>((resolve) => {
      const sock = connect(slow.port, "127.0.0.1");
      let got = "";
      sock.on("data", (d) => {
        got += d.toString();
        if (/\r\n\r\n[\s\S]*\}$/.test(got)) sock.destroy();
      });
      sock.on("close", () => resolve(got));
      sock.on("error", () => resolve(got));
      sock.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n${headers}\r\n{"query":`,
      );
    });

  test("is refused with invalid_request once the body time is up, on the query and account routes", async () => {
    const k = await keyedClient(slow.url);
    for (const [path, headers] of [
      ["/api/query", `Authorization: Bearer ${k.key}\r\n`],
      ["/api/v1/auth/login", ""],
    ] as const) {
      const answer = await trickle(path, headers);
      expect(answer, path).toStartWith("HTTP/1.1 400");
      expect(answer, path).toContain("did not arrive within 0.3 s");
    }
  });
});
