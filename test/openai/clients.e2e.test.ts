import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { ChatOpenAI } from "@langchain/openai";
import { APICallError, generateText, streamText } from "ai";
import { type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";
import { type Client, keyedClient } from "../helpers/server.ts";
import { type CollectionsServer, startCollectionsServer } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { type FrontProcess, spawnFront } from "./front-process.ts";

useLongTimeout();

let pages: PageServer, search: SearchFixtures, server: CollectionsServer, owner: Client, key: string;
const fronts = {} as Record<"remote" | "local", FrontProcess>;

beforeAll(async () => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
  server = await startCollectionsServer({ SEARXNG_URL: search.urls.searxng, FETCH_ALLOW_PRIVATE: "true" });
  ({ c: owner, key } = await keyedClient(server.srv.url));
  fronts.remote = await spawnFront(["--server", server.srv.url]);
  fronts.local = await spawnFront([], {
    SEARXNG_URL: search.urls.searxng,
    ACADEMIC_PROVIDERS: "none",
    FETCH_ALLOW_PRIVATE: "true",
    DATABASE_PATH: "./none.db",
  });
});
afterAll(async () => {
  await fronts.remote.stop();
  await fronts.local.stop();
  await server.stop();
  pages.stop();
  search.stop();
});

const QUESTION = "How do base editors avoid double-strand breaks?";
const MODES = ["remote", "local"] as const;

/** Runs charged to the owner's account: only the remote front's calls count. */
const charged = (mode: (typeof MODES)[number]) => (mode === "remote" ? 1 : 0);

describe.each(MODES)("the real clients against the front (%s mode)", (mode) => {
  const base = () => `${fronts[mode].url}/v1`;

  test("Vercel AI SDK (@ai-sdk/openai-compatible): generateText and streamText, reasoning apart from the text", async () => {
    const provider = createOpenAICompatible({
      name: "research-query",
      baseURL: base(),
      apiKey: key,
      includeUsage: true,
    });
    const before = await owner.used();
    const g = await generateText({ model: provider("research-query"), prompt: QUESTION, maxRetries: 0 });
    expect(g.text).toContain("[S1]");
    expect(g.text).toContain("**Sources**");
    expect(g.finishReason).toBe("stop");
    const s = streamText({ model: provider("research-query"), prompt: QUESTION, maxRetries: 0 });
    let text = "";
    for await (const part of s.textStream) text += part;
    expect(text).toContain("**Sources**");
    expect(await s.reasoningText).toContain("searching: ");
    expect(text).not.toContain("searching: ");
    expect(await owner.used()).toBe(before + 2 * charged(mode));
  });

  test("LangChain's ChatOpenAI with a base URL: invoke and stream", async () => {
    const llm = new ChatOpenAI({
      model: "research-query",
      apiKey: key,
      configuration: { baseURL: base() },
      maxRetries: 0,
    });
    const before = await owner.used();
    const m = await llm.invoke([
      ["system", "You are a helpful assistant."],
      ["human", QUESTION],
    ]);
    expect(String(m.content)).toContain("**Sources**");
    let streamed = "";
    for await (const chunk of await llm.stream(QUESTION)) streamed += String(chunk.content);
    expect(streamed).toContain("[S1]");
    expect(await owner.used()).toBe(before + 2 * charged(mode));
  });

  test("curl, as a process: the JSON answer and the stream to data: [DONE]", async () => {
    const body = JSON.stringify({ model: "research-query", messages: [{ role: "user", content: QUESTION }] });
    const curl = async (data: string) => {
      const p = Bun.spawn(
        [
          "curl",
          "-sN",
          `${base()}/chat/completions`,
          "-H",
          `Authorization: Bearer ${key}`,
          "-H",
          "content-type: application/json",
          "-d",
          data,
        ],
        { stdout: "pipe", stderr: "pipe" },
      );
      const [out] = await Promise.all([new Response(p.stdout).text(), p.exited]);
      return out;
    };
    const json = JSON.parse(await curl(body)) as { choices: { message: { content: string } }[] };
    expect(json.choices[0]!.message.content).toContain("**Sources**");
    const sse = await curl(JSON.stringify({ ...JSON.parse(body), stream: true }));
    expect(sse).toContain('"reasoning_content":"');
    expect(sse.trimEnd()).toEndWith("data: [DONE]");
  });
});

describe("the clients' errors", () => {
  test("the Vercel AI SDK raises a refused key as APICallError with its status", async () => {
    const provider = createOpenAICompatible({
      name: "rq",
      baseURL: `${fronts.remote.url}/v1`,
      apiKey: "rq-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    });
    const e = await generateText({ model: provider("research-query"), prompt: QUESTION, maxRetries: 0 }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(APICallError.isInstance(e)).toBe(true);
    expect((e as APICallError).statusCode).toBe(401);
  });
});
