import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/config/load.ts";
import { buildEngine } from "../../../src/research/build-engine.ts";
import { markersAtSentenceEnds } from "../../../src/research/write/marker-places.ts";
import { createLogger } from "../../../src/util/logger.ts";
import { type ChatServer, isPlannerCall, startChatServer } from "../../fixtures/chat-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../../fixtures/search-servers.ts";
import { keyedClient, query, startTestServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

describe("where a marker stands (docs/decisions/0138-where-markers-stand.md)", () => {
  test("a marker between two words of a clause goes to its sentence's end; one at a clause's end stays", () => {
    expect(
      markersAtSentenceEnds(
        "The yield rose [S1] from 61 percent to 74 percent. Costs fell [S2], and the step took [S3] two hours.",
      ),
    ).toBe("The yield rose from 61 percent to 74 percent [S1]. Costs fell [S2], and the step took two hours [S3].");
    expect(markersAtSentenceEnds("- the yield rose [S1][S2] from 61 percent\n- costs fell [S2].")).toBe(
      "- the yield rose from 61 percent [S1][S2]\n- costs fell [S2].",
    );
    // Headings and code are the model's own layout: nothing in them moves.
    const code = "## Yield [S1] by week\n\n```\nrate [S1] per run\n```";
    expect(markersAtSentenceEnds(code)).toBe(code);
  });
});

// Through the server: a model (fixture speaking OpenAI's wire format) cites mid-sentence.
const PAGE = `<!doctype html><html lang="en"><head><title>Coating trial</title></head><body><main><article>
<h1>Coating trial</h1><p>The yield rose from 61 percent to 74 percent once the cathode particles were coated with alumina.</p>
<p>The coating step added two hours per batch and raised the cost per kilogram by three percent.</p>
<p>Cells made from the coated cathode kept ninety-two percent of their capacity after five hundred cycles of fast charging, while cells from the bare cathode kept seventy-one percent, so the team will coat every batch from the next quarter on.</p></article></main></body></html>`;

let pages: ReturnType<typeof Bun.serve>, search: SearchFixtures, chat: ChatServer;
beforeAll(() => {
  pages = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
  });
  search = startSearchFixtures(`http://127.0.0.1:${pages.port}`);
  search.setWeb([{ title: "Coating trial", url: "/coating", snippet: "The yield rose from 61 percent" }]);
  chat = startChatServer((b) =>
    isPlannerCall(b)
      ? { text: JSON.stringify({ kind: "general", language: "en", queries: ["coating yield"] }) }
      : { text: "The yield rose [S1] from 61 percent to 74 percent once the particles were coated with alumina." },
  );
});
afterAll(() => {
  pages.stop(true);
  search.stop();
  chat.stop();
});

test("a model's marker inside a sentence reaches the caller at the sentence's end, and is checked there", async () => {
  const env = {
    SEARXNG_URL: search.urls.searxng,
    ACADEMIC_PROVIDERS: "none",
    LOCAL_SEARCH: "off",
    FETCH_ALLOW_PRIVATE: "true",
    OPENAI_BASE_URL: chat.openaiBase,
  };
  const config = loadConfig({ PORT: "0", DATABASE_PATH: ":memory:", ...env }, "/nonexistent");
  const s = startTestServer({ engine: buildEngine(config, createLogger("silent")), env });
  try {
    const { key } = await keyedClient(s.url);
    const out = (await (await query(s.url, key, { query: "How did the coating change the yield?" })).json()) as any;
    expect(out.status, JSON.stringify(out.errors)).toBe("ok");
    expect(out.writer).toBe("llm");
    expect(out.answer).toBe(
      "The yield rose from 61 percent to 74 percent once the particles were coated with alumina [S1].",
    );
    expect(out.sources[0].evidence[0]).toMatchObject({
      claim: "The yield rose from 61 percent to 74 percent once the particles were coated with alumina.",
      quote: "The yield rose from 61 percent to 74 percent once the cathode particles were coated with alumina.",
    });
  } finally {
    await s.stop(100);
  }
});
