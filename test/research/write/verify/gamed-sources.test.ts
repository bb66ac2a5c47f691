import { afterAll, beforeAll, expect, test } from "bun:test";
import { loadConfig } from "../../../../src/config/load.ts";
import { buildEngine } from "../../../../src/research/build-engine.ts";
import { createLogger } from "../../../../src/util/logger.ts";
import { type ChatServer, isPlannerCall, startChatServer } from "../../../fixtures/chat-server.ts";
import { serveArticles } from "../../../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../../../fixtures/search-servers.ts";
import { keyedClient, query, startTestServer } from "../../../helpers/server.ts";
import { useLongTimeout } from "../../../setup.ts";

useLongTimeout();

// Pages written to game the claim check (README "Claims you can check"), read over HTTP by the
// running server, a model (fixture speaking OpenAI's wire format) citing them.
const NUMBERS = Array.from({ length: 2000 }, (_, i) => String(i)).join(" ");
// More than the 1,500 characters the check once told a page's language from, then English.
const PADDING =
  "Die Geschichte des Tees ist sehr alt, und die Menschen bauen ihn an vielen Orten an, wo er auf die eine oder andere Art verarbeitet wird. ".repeat(
    11,
  );
const COFFEE = [
  "Coffee plants grow best at altitudes between 1,200 and 2,000 metres, where the nights are cool and the rain is steady.",
  "Arabica beans are picked by hand in most of Ethiopia, where the plant first grew wild in the forests of the south west.",
  "Roasting turns the green beans brown and releases their oils, and a light roast keeps more of the acidity of the bean.",
  "Farmers dry the picked cherries in the sun on raised beds for about two weeks before the beans are hulled and sorted.",
  "Most of the crop is sold through cooperatives, which pool the beans of many small farms and grade them for export.",
  "Coffee rust, a fungus that spreads in warm and wet weather, has cut the harvest of many farms in the last ten years.",
  "Growers now plant shade trees between the rows, which keeps the soil moist and gives birds a place to nest as well.",
];
const PAGES: Record<string, [title: string, paragraphs: string[]]> = {
  "/figures": ["Figures", [NUMBERS]],
  // Most of the page is English (a longer page than its padding, as real pages are).
  "/padded": ["How coffee is grown", [PADDING, ...COFFEE, ...COFFEE, ...COFFEE]],
};

// Each claim cites the page named beside it; none but the first is backed by its page.
const CLAIMS: [claim: string, path: string][] = [
  ["Arabica beans are picked by hand in Ethiopia.", "/padded"],
  ["In 1990 there were 1500 of them.", "/figures"],
  ["The town grew from 1200 to 1500 between 1980 and 1990.", "/figures"],
  ["The solid-state cell kept 80 percent of its capacity after 1000 cycles.", "/padded"],
];

let pages: ReturnType<typeof Bun.serve>, search: SearchFixtures, chat: ChatServer;
beforeAll(() => {
  pages = serveArticles(PAGES);
  search = startSearchFixtures(`http://127.0.0.1:${pages.port}`);
  search.setWeb(Object.entries(PAGES).map(([url, [title]]) => ({ title, url, snippet: title })));
  chat = startChatServer((b) => {
    if (isPlannerCall(b)) return { text: JSON.stringify({ kind: "general", language: "en", queries: ["figures"] }) };
    const user = b.messages.find((m) => m.role === "user")!.content;
    const idOf = (path: string) => user.match(new RegExp(`<source id="(S\\d+)"[^>]*url="[^"]*${path}"`))?.[1] ?? "S9";
    return { text: CLAIMS.map(([claim, path]) => claim.replace(/\.$/, ` [${idOf(path)}].`)).join(" ") };
  });
});
afterAll(() => {
  pages.stop(true);
  search.stop();
  chat.stop();
});

test("a page of bare numbers backs no claim, and a page opening in another language is still judged", async () => {
  const all = {
    SEARXNG_URL: search.urls.searxng,
    ACADEMIC_PROVIDERS: "none",
    LOCAL_SEARCH: "off",
    FETCH_ALLOW_PRIVATE: "true",
    OPENAI_BASE_URL: chat.openaiBase,
  };
  const config = loadConfig({ PORT: "0", DATABASE_PATH: ":memory:", ...all }, "/nonexistent");
  const s = startTestServer({ engine: buildEngine(config, createLogger("silent")), env: all });
  try {
    const { key } = await keyedClient(s.url);
    const body = { query: "How many were there in 1500 and 1990, and how are Arabica coffee beans picked?" };
    const env = (await (await query(s.url, key, body)).json()) as any;
    expect(env.status).toBe("ok");
    // All four claims reached the check cited (`cited`): the pages were read and chosen.
    expect(env.verification).toEqual({
      claims: 4,
      cited: 4,
      supported: 1,
      unsupported: 3,
      coverage: 0.25,
      contradicted: 0,
      recited: 0,
    });
    // The one claim its page backs keeps its marker, with the English sentence as its quote.
    const padded = env.sources.find((x: any) => x.url.endsWith("/padded"));
    expect(padded.evidence.map((e: any) => e.claim)).toEqual([CLAIMS[0]![0]]);
    expect(padded.evidence[0].quote).toContain("Arabica beans are picked by hand");
    expect(padded.evidence[0].support).toBeGreaterThanOrEqual(0.45);
    // The numbers back nothing: the claims citing them lose their markers, the page drops out uncited.
    expect(env.sources.map((x: any) => new URL(x.url).pathname)).toEqual(["/padded"]);
    for (const [claim] of CLAIMS.slice(1)) expect(env.answer).toContain(claim);
    expect(env.answer.match(/\[S\d+\]/g)).toEqual(["[S1]"]);
  } finally {
    await s.stop(100);
  }
});
