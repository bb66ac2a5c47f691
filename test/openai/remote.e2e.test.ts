import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI, { type APIError } from "openai";
import { type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";
import { type Client, keyedClient } from "../helpers/server.ts";
import { type CollectionsServer, closedPort, startCollectionsServer } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { type FrontProcess, spawnFront } from "./front-process.ts";

useLongTimeout();

let pages: PageServer, search: SearchFixtures, server: CollectionsServer, front: FrontProcess;
let owner: Client, key: string;

beforeAll(async () => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
  server = await startCollectionsServer({ SEARXNG_URL: search.urls.searxng, FETCH_ALLOW_PRIVATE: "true" });
  ({ c: owner, key } = await keyedClient(server.srv.url));
  front = await spawnFront(["--server", server.srv.url]);
});
afterAll(async () => {
  await front.stop();
  await server.stop();
  pages.stop();
  search.stop();
});

const QUESTION = "How do base editors avoid double-strand breaks?";
const messages = [
  { role: "system" as const, content: "You are a helpful assistant. Never research this line." },
  { role: "user" as const, content: QUESTION },
];

type Recent = { request_id: string; origin: string; endpoint: string; status: string };
const recent = async (c: Client) =>
  ((await (await c.req("GET", "/api/console/usage")).json()) as { recent: Recent[] }).recent;

describe("openai --server: the official SDK against a server's real keys, allowance and Console", () => {
  test("models lists research-query; a completion answers through the caller's key, charged once, in its Console only", async () => {
    const sdk = front.sdk(key);
    const models = await sdk.models.list();
    expect(models.data.map((m) => [m.id, m.object, m.owned_by])).toEqual([
      ["research-query", "model", "research-query"],
    ]);
    const before = await owner.used();
    const r = await sdk.chat.completions.create({ model: "gpt-4o", messages });
    expect(r.object).toBe("chat.completion");
    expect(r.model).toBe("research-query");
    const content = r.choices[0]!.message.content!;
    expect(content).toMatch(/\[S1\]/);
    expect(content).toContain("**Sources**\n\n1. [");
    expect(r.choices[0]!.finish_reason).toBe("stop");
    // Citations that survive: each annotation spans a cited claim up to its marker, linking its source.
    const annotations = r.choices[0]!.message.annotations!;
    expect(annotations.length).toBeGreaterThan(0);
    for (const a of annotations) {
      expect(a.type).toBe("url_citation");
      const span = content.slice(a.url_citation.start_index, a.url_citation.end_index);
      expect(span).toMatch(/^\p{Lu}.{20,}\[S1\]$/su);
      expect(content).toContain(`1. [${a.url_citation.title}](${a.url_citation.url})`);
    }
    // The evidence quotes under their source, as a block quote every Markdown client shows.
    expect(content).toMatch(/\n1\. \[[^\n]+\n {3}> “[^\n]+”/);
    expect(r.usage!.total_tokens).toBe(r.usage!.prompt_tokens + r.usage!.completion_tokens);
    expect(await owner.used()).toBe(before + 1);
    const [last] = await recent(owner);
    expect(last).toMatchObject({ origin: "api", endpoint: "/api/query/stream", status: "ok" });
    // Another account's key sees nothing of it.
    const { c: other } = await keyedClient(server.srv.url);
    expect(await recent(other)).toEqual([]);
    expect(await other.used()).toBe(0);
  });

  test("streamed: progress as reasoning_content, never in content; the answer, then [DONE]; charged once", async () => {
    const before = await owner.used();
    const stream = await front.sdk(key).chat.completions.create({ model: "anything", messages, stream: true });
    let content = "";
    let reasoning = "";
    const annotations: { url_citation: { start_index: number; end_index: number } }[] = [];
    const finishes: (string | null)[] = [];
    for await (const chunk of stream) {
      expect(chunk.object).toBe("chat.completion.chunk");
      expect(chunk.model).toBe("research-query");
      const delta = chunk.choices[0]?.delta as
        | { content?: string; reasoning_content?: string; annotations?: typeof annotations }
        | undefined;
      content += delta?.content ?? "";
      reasoning += delta?.reasoning_content ?? "";
      annotations.push(...(delta?.annotations ?? []));
      finishes.push(chunk.choices[0]?.finish_reason ?? null);
    }
    for (const stage of ["planning", "searching", "reading", "writing"]) expect(reasoning).toContain(`${stage}: `);
    expect(content).toMatch(/\[S1\]/);
    expect(content).toContain("**Sources**");
    for (const stage of ["planning:", "searching:", "reading:"]) expect(content).not.toContain(stage);
    expect(finishes.at(-1)).toBe("stop");
    expect(annotations.length).toBeGreaterThan(0);
    for (const a of annotations)
      expect(content.slice(a.url_citation.start_index, a.url_citation.end_index)).toEndWith("[S1]");
    expect(await owner.used()).toBe(before + 1);
  });

  test("a revoked, unknown or missing key is 401, raised as AuthenticationError", async () => {
    const { c, key: revoked } = await keyedClient(server.srv.url);
    const keys = (await (await c.req("GET", "/api/console/keys")).json()) as { keys: { id: string }[] };
    await c.req("DELETE", `/api/console/keys/${keys.keys[0]!.id}`);
    for (const [k, code] of [
      [revoked, "key_inactive"],
      ["rq-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "invalid_api_key"],
    ] as const)
      for (const stream of [false, true]) {
        const e = await front
          .sdk(k)
          .chat.completions.create({ model: "x", messages, stream })
          .then(
            () => null,
            (x: unknown) => x,
          );
        expect(e).toBeInstanceOf(OpenAI.AuthenticationError);
        expect((e as APIError).status).toBe(401);
        expect((e as APIError).code).toBe(code);
        expect((e as APIError).type).toBe("invalid_request_error");
      }
    const res = await fetch(`${front.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("missing_api_key");
  });

  test("a spent allowance is 429 with Retry-After, raised as RateLimitError; the SDK is told not to retry it", async () => {
    const tight = await startCollectionsServer({
      SEARXNG_URL: search.urls.searxng,
      FETCH_ALLOW_PRIVATE: "true",
      PLAN_RUNS_FREE: "1",
    });
    const f = await spawnFront(["--server", tight.srv.url]);
    try {
      const { c, key: k } = await keyedClient(tight.srv.url);
      await f.sdk(k).chat.completions.create({ model: "x", messages });
      for (const stream of [false, true]) {
        // Retries allowed: x-should-retry: false must stop the SDK from asking again.
        const e = (await f
          .sdk(k, 2)
          .chat.completions.create({ model: "x", messages, stream })
          .then(
            () => null,
            (x: unknown) => x,
          )) as APIError;
        expect(e).toBeInstanceOf(OpenAI.RateLimitError);
        expect(e.status).toBe(429);
        expect(e.code).toBe("quota_exceeded");
        expect(Number(e.headers?.get("retry-after"))).toBeGreaterThan(0);
      }
      expect(await c.used()).toBe(1);
      // One refusal logged per call: the SDK did not ask again.
      const log = await f.out.until('"code":"quota_exceeded"');
      expect(log.match(/"code":"quota_exceeded"/g)).toHaveLength(2);
    } finally {
      await f.stop();
      await tight.stop();
    }
  });

  test("a bad body is 400; a server out of reach is 502", async () => {
    const bad = await front
      .sdk(key)
      .chat.completions.create({ model: "x", messages: [{ role: "system", content: "only a system message" }] })
      .then(
        () => null,
        (x: unknown) => x,
      );
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect((bad as APIError).message).toContain("the last message must be the user's question");
    const away = await spawnFront(["--server", `http://127.0.0.1:${closedPort()}`]);
    try {
      const e = await away
        .sdk(key)
        .chat.completions.create({ model: "x", messages })
        .then(
          () => null,
          (x: unknown) => x,
        );
      expect(e).toBeInstanceOf(OpenAI.InternalServerError);
      expect([(e as APIError).status, (e as APIError).code]).toEqual([502, "server_unreachable"]);
    } finally {
      await away.stop();
    }
  });
});
