import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/config/load.ts";
import { createEngine } from "../../../src/research/engine/engine.ts";
import type { Verifier } from "../../../src/research/engine/verify-stage.ts";
import { buildLlm } from "../../../src/research/llm/factory.ts";
import { FetchError } from "../../../src/research/read/fetch-error.ts";
import { buildSearchProviders } from "../../../src/research/search/registry.ts";
import { type ChatServer, isPlannerCall, startChatServer } from "../../fixtures/chat-server.ts";
import { type PageServer, startPageServer } from "../../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../../fixtures/search-servers.ts";
import { keyedClient, query, startTestServer } from "../../helpers/server.ts";
import { readSse } from "../../helpers/sse.ts";

// A claim check its worker failed (the pool's job limit, a crash) is not redone on the server's
// thread: the run ends with its answer as written (docs/decisions/0116-the-claim-check-never-redone-here.md).
let pages: PageServer, search: SearchFixtures, chat: ChatServer;
beforeAll(() => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
  chat = startChatServer((b) =>
    isPlannerCall(b)
      ? { text: '{"kind":"web","language":"en","queries":["base editing"]}' }
      : { text: "Base editors avoid double-strand breaks [S1]. The Eiffel Tower is 330 metres tall [S1]." },
  );
});
afterAll(() => {
  pages.stop();
  search.stop();
  chat.stop();
});

describe("a claim check that fails on its worker", () => {
  test("leaves the answer as written, says so in the verifying progress, and the run ends ok", async () => {
    const env = {
      SEARXNG_URL: search.urls.searxng,
      ACADEMIC_PROVIDERS: "none",
      FETCH_ALLOW_PRIVATE: "true",
      OPENAI_BASE_URL: chat.openaiBase,
    };
    const config = loadConfig({ PORT: "0", DATABASE_PATH: ":memory:", ...env }, "/nonexistent");
    let asked = 0;
    // What the parse pool's verify answers once a worker overran the job.
    const overrun: Verifier = async (input) => {
      asked++;
      throw new FetchError("timeout", `verify:${input.sources[0]?.url}`, "parsing took longer than 20000 ms");
    };
    const engine = createEngine({
      llm: buildLlm(config),
      search: buildSearchProviders(config),
      allowPrivate: true,
      verifier: overrun,
    });
    const s = startTestServer({ engine, env });
    try {
      const { key } = await keyedClient(s.url);
      const st = await readSse(
        await query(s.url, key, { query: "How do base editors work?" }, {}, "/api/query/stream"),
      );
      const verifying = st.events.find((e) => e.event === "progress" && e.data.stage === "verifying")!;
      expect(verifying.data.message).toContain("could not be checked (parsing took longer than 20000 ms)");
      const final = st.events.at(-1)!.data;
      expect(final.status).toBe("ok");
      // Nothing was judged: the unrelated claim keeps its marker, no quote, nothing counted.
      expect(final.answer).toBe(
        "Base editors avoid double-strand breaks [S1]. The Eiffel Tower is 330 metres tall [S1].",
      );
      expect(final.sources.map((x: { evidence: unknown[] }) => x.evidence)).toEqual([[]]);
      expect(final.verification).toEqual({
        claims: 2,
        cited: 2,
        supported: 0,
        unsupported: 0,
        coverage: 0,
        contradicted: 0,
        recited: 0,
      });
      expect(verifying.data).toMatchObject(final.verification);
      expect(asked).toBe(1);
    } finally {
      await s.stop(100);
    }
  });
});
