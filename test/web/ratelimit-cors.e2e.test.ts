import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { keyedClient, startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { canRun, launchChromium } from "./browser.ts";

useLongTimeout();

let srv: TestServer;
let page: ReturnType<typeof Bun.serve>;
let browser: Browser;

beforeAll(async () => {
  if (!canRun) return;
  srv = startTestServer({ engine: scriptedEngine(), env: { PLAN_RUNS_FREE: "3" } });
  // A page of another origin (another port), as a developer's own web app would be.
  page = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response("<!doctype html><title>elsewhere</title>", { headers: { "content-type": "text/html" } }),
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  page?.stop(true);
  await srv?.stop(100);
});

describe.skipIf(!canRun)("RateLimit fields in a browser of another origin", () => {
  test("fetch with a key (preflighted) reads RateLimit and RateLimit-Policy on an answer and a stream", async () => {
    const { key } = await keyedClient(srv.url);
    const tab = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await tab.goto(`http://127.0.0.1:${page.port}/`);
    const read = await tab.evaluate(
      async ({ base, key }) => {
        const call = async (path: string) => {
          const res = await fetch(base + path, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: JSON.stringify({ query: "What is X?" }),
          });
          await res.text();
          return [res.status, res.headers.get("ratelimit"), res.headers.get("ratelimit-policy")];
        };
        return [await call("/api/query"), await call("/api/query/stream")];
      },
      { base: srv.url, key },
    );
    expect(read[0]).toEqual([
      200,
      expect.stringMatching(/^"monthly";r=2;t=\d+$/),
      expect.stringMatching(/^"monthly";q=3;w=\d+$/),
    ]);
    expect(read[1]).toEqual([
      200,
      expect.stringMatching(/^"monthly";r=1;t=\d+$/),
      expect.stringMatching(/^"monthly";q=3;w=\d+$/),
    ]);
  });
});
