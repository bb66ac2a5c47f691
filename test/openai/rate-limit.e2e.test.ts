import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI, { type APIError } from "openai";
import { type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";
import { type Client, keyedClient } from "../helpers/server.ts";
import { type CollectionsServer, startCollectionsServer } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { type FrontProcess, spawnFront } from "./front-process.ts";

useLongTimeout();

let pages: PageServer, search: SearchFixtures, server: CollectionsServer, front: FrontProcess;

beforeAll(async () => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
  server = await startCollectionsServer({
    SEARXNG_URL: search.urls.searxng,
    FETCH_ALLOW_PRIVATE: "true",
    PLAN_RUNS_FREE: "2",
  });
  front = await spawnFront(["--server", server.srv.url]);
});
afterAll(async () => {
  await front.stop();
  await server.stop();
  pages.stop();
  search.stop();
});

const messages = [{ role: "user" as const, content: "How do base editors avoid double-strand breaks?" }];

/** The Console's allowance, as the server's fields would state it. */
async function consoleFields(c: Client): Promise<{ policy: RegExp; left: RegExp }> {
  const u = (await (await c.req("GET", "/api/console/usage")).json()) as {
    allowance: { limit: number; remaining: number };
  };
  return {
    policy: new RegExp(`^"monthly";q=${u.allowance.limit};w=\\d+$`),
    left: new RegExp(`^"monthly";r=${u.allowance.remaining};t=\\d+$`),
  };
}

describe("openai --server passes the server's RateLimit fields on", () => {
  test("on an answer, a streamed answer and a 429, as the official SDK's raw headers show them", async () => {
    const { c, key } = await keyedClient(server.srv.url);
    const sdk = front.sdk(key);
    const json = await sdk.chat.completions.create({ model: "x", messages }).withResponse();
    expect(json.data.object).toBe("chat.completion");
    let want = await consoleFields(c);
    expect(json.response.headers.get("ratelimit")).toMatch(want.left);
    expect(json.response.headers.get("ratelimit")).toStartWith('"monthly";r=1;');
    expect(json.response.headers.get("ratelimit-policy")).toMatch(want.policy);

    const streamed = await sdk.chat.completions.create({ model: "x", messages, stream: true }).withResponse();
    for await (const _ of streamed.data) {
      /* read to the end */
    }
    want = await consoleFields(c);
    expect(streamed.response.headers.get("ratelimit")).toMatch(want.left);
    expect(streamed.response.headers.get("ratelimit")).toStartWith('"monthly";r=0;');

    for (const stream of [false, true]) {
      const e = (await sdk.chat.completions.create({ model: "x", messages, stream }).then(
        () => null,
        (x: unknown) => x,
      )) as APIError;
      expect(e).toBeInstanceOf(OpenAI.RateLimitError);
      expect(e.headers?.get("ratelimit-policy")).toMatch(want.policy);
      const limit = e.headers?.get("ratelimit") ?? "";
      expect(limit).toMatch(want.left);
      expect(limit).toBe(`"monthly";r=0;t=${e.headers?.get("retry-after")}`);
    }
  });

  test("a refused key gets none, as from the server", async () => {
    const e = (await front
      .sdk("rq-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
      .chat.completions.create({ model: "x", messages })
      .then(
        () => null,
        (x: unknown) => x,
      )) as APIError;
    expect(e.status).toBe(401);
    expect(e.headers?.get("ratelimit")).toBeNull();
  });
});
