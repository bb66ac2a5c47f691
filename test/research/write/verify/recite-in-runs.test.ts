import { afterAll, beforeAll, expect, test } from "bun:test";
import { loadConfig } from "../../../../src/config/load.ts";
import { buildEngine } from "../../../../src/research/build-engine.ts";
import { createLogger } from "../../../../src/util/logger.ts";
import {
  type CitedPages,
  type Claims,
  citing,
  type Pages,
  sentenceOf,
  startCitedPages,
} from "../../../fixtures/cited-pages.ts";
import { keyedClient, query, startTestServer } from "../../../helpers/server.ts";
import { readSse } from "../../../helpers/sse.ts";
import { useLongTimeout } from "../../../setup.ts";

useLongTimeout();

// Re-citing through the running server (README "Claims you can check"): every cited claim is
// checked against every source the run read; a marker on a source that does not back its
// sentence moves to the one that does, or goes when none does. Never a marker added.
const PAGES: Pages = {
  "/kessler": [
    "The Kessler syndrome",
    [
      "The Kessler syndrome is a cascade in which collisions between objects in low Earth orbit create debris that causes further collisions.",
      "Donald Kessler described the effect in 1978 while working at NASA.",
      "Above a critical density of objects, the number of fragments grows even if no new satellites are launched.",
    ],
  ],
  "/removal": [
    "Active debris removal",
    [
      "Studies of the debris environment model how the population of fragments changes over two centuries.",
      "Removing five to ten large derelict objects each year would stabilise low Earth orbit, according to the models.",
      "Candidate targets include spent rocket bodies and dead satellites in crowded altitude bands.",
    ],
  ],
  "/trial-a": [
    "Statins in older adults",
    [
      "The trial followed 4,000 adults aged over 65 for ten years.",
      "Statin use increased the risk of type 2 diabetes by 9 percent in older adults.",
      "The authors recommend that doctors weigh the benefit for the heart against the chance of a new metabolic disease, and check blood sugar once a year in patients who take the drug for long periods.",
    ],
  ],
  "/trial-b": [
    "A second statin cohort",
    [
      "A second cohort of older adults was followed in Denmark.",
      "In that cohort, statin use decreased the risk of type 2 diabetes in older adults.",
      "The registry linked prescriptions, hospital records and laboratory results for every resident over a period of twelve years, which let the researchers follow patients who moved between regions.",
    ],
  ],
  "/reefs": [
    "Coral reefs and warming seas",
    [
      "Coral bleaching happens when warm water makes corals expel the algae living in their tissue.",
      "Reefs need about a decade to recover from a severe bleaching event.",
      "Divers surveyed the same transects every spring and counted the living colonies, the bleached ones and the dead ones along each line, and compared the counts with the water temperatures logged by buoys.",
    ],
  ],
};

/** Cited to the page that says the opposite, while the run's other page says it. */
const STATIN_CLAIM = "Statin use decreased the risk of type 2 diabetes in older adults";

/** The model's claims: each cites the page whose text holds `cite` (none when null). */
const CLAIMS: Claims = [
  ["Collisions between objects in low Earth orbit can create debris that causes more collisions.", "cascade"],
  ["Removing five to ten large derelict objects each year would stabilise low Earth orbit.", "cascade"],
  ["Coral reefs recover within two years of a severe bleaching event.", "cascade"],
  ["Kessler described the effect in 1978 while he worked at NASA.", null],
];

let world: CitedPages;
beforeAll(() => {
  world = startCitedPages(PAGES, ["debris"], (idOf, prompt) =>
    prompt.includes("[statins]") ? `${STATIN_CLAIM} [${idOf("increased the risk")}].` : citing(CLAIMS, idOf),
  );
});
afterAll(() => world.stop());

const QUESTION = "What is the Kessler syndrome, what would stabilise low Earth orbit, and how fast do reefs recover?";
const STATINS = "Do [statins] raise or lower the risk of type 2 diabetes in older adults?";

async function withServer(llm: boolean, fn: (url: string, key: string) => Promise<void>) {
  const env0 = {
    SEARXNG_URL: world.search.urls.searxng,
    ACADEMIC_PROVIDERS: "none",
    LOCAL_SEARCH: "off",
    FETCH_ALLOW_PRIVATE: "true",
    ...(llm ? { OPENAI_BASE_URL: world.chat.openaiBase } : {}),
  };
  const config = loadConfig({ PORT: "0", DATABASE_PATH: ":memory:", ...env0 }, "/nonexistent");
  const s = startTestServer({ engine: buildEngine(config, createLogger("silent")), env: env0 });
  try {
    const { key } = await keyedClient(s.url);
    await fn(s.url, key);
  } finally {
    await s.stop();
  }
}

test("a marker on a page that does not back its sentence moves to the page of the run that does, or goes when none does; a paraphrase keeps its marker and no marker is added", async () => {
  await withServer(true, async (url, key) => {
    const env = (await (await query(url, key, { query: QUESTION })).json()) as any;
    expect(env.status).toBe("ok");
    const kessler = env.sources.find((x: any) => x.url.endsWith("/kessler"));
    const removal = env.sources.find((x: any) => x.url.endsWith("/removal"));
    // The paraphrase keeps its marker; the removal page, which the writer never cited, is cited now and numbered by first citation.
    expect(kessler.id).toBe("S1");
    expect(removal.id).toBe("S2");
    expect(sentenceOf(env.answer, "Collisions between")).toBe(`${CLAIMS[0]![0].slice(0, -1)} [S1].`);
    expect(sentenceOf(env.answer, "Removing five")).toBe(`${CLAIMS[1]![0].slice(0, -1)} [S2].`);
    expect(removal.evidence).toEqual([
      {
        claim: CLAIMS[1]![0],
        quote: PAGES["/removal"]![1][1],
        support: expect.any(Number),
        verdict: "supported",
        recited: true,
      },
    ]);
    expect(kessler.evidence.map((e: any) => [e.claim, e.verdict, e.recited])).toEqual([
      [CLAIMS[0]![0], "supported", undefined],
    ]);
    // No page backs the reef claim: its marker goes; the claim written without one stays without one.
    expect(sentenceOf(env.answer, "Coral reefs")).toBe(CLAIMS[2]![0]);
    expect(sentenceOf(env.answer, "Kessler described")).toBe(CLAIMS[3]![0]);
    expect(env.answer.match(/\[S\d+\]/g)).toEqual(["[S1]", "[S2]"]);
    expect(env.sources.map((x: any) => x.id)).toEqual(["S1", "S2"]);
    expect(env.verification).toEqual({
      claims: 4,
      cited: 3,
      supported: 2,
      unsupported: 1,
      coverage: 0.5,
      contradicted: 0,
      recited: 1,
    });
    // The stream's verifying progress carries the count, and its final the same answer.
    const st = await readSse(await query(url, key, { query: QUESTION }, {}, "/api/query/stream"));
    const verifying = st.events.find((e) => e.event === "progress" && e.data.stage === "verifying")!.data;
    expect(verifying).toMatchObject({ recited: 1, supported: 2 });
    expect(verifying.message).toContain("1 marker moved to a source that backs the claim");
    expect(st.events.at(-1)!.data.answer).toBe(env.answer);
  });
});

test("a contradicted citation's marker moves to the page that backs the sentence; the quote that says otherwise stays on its page", async () => {
  world.search.setWeb(
    ["/trial-a", "/trial-b"].map((url) => ({ title: PAGES[url]![0], url, snippet: PAGES[url]![1][0]! })),
  );
  try {
    await withServer(true, async (url, key) => {
      const env = (await (await query(url, key, { query: STATINS })).json()) as any;
      expect(env.errors).toEqual([]);
      expect(env.answer).toBe(`${STATIN_CLAIM} [S1].`);
      const [b, a] = env.sources;
      expect([b.id, b.url.endsWith("/trial-b"), a.id, a.url.endsWith("/trial-a")]).toEqual(["S1", true, "S2", true]);
      expect(b.evidence).toEqual([expect.objectContaining({ verdict: "supported", recited: true })]);
      expect(a.evidence).toEqual([
        expect.objectContaining({ verdict: "contradicted", quote: expect.stringContaining("increased the risk") }),
      ]);
      expect(a.evidence[0].recited).toBeUndefined();
      expect(env.verification).toMatchObject({ claims: 1, supported: 1, unsupported: 0, contradicted: 1, recited: 1 });
    });
  } finally {
    world.search.setWeb(Object.entries(PAGES).map(([url, [title, paras]]) => ({ title, url, snippet: paras[0]! })));
  }
});

test("an extractive answer, its quotes verbatim, still checks at 1 and moves nothing", async () => {
  await withServer(false, async (url, key) => {
    const env = (await (await query(url, key, { query: QUESTION })).json()) as any;
    expect(env.status).toBe("ok");
    expect(env.writer).toBe("extractive");
    const v = env.verification;
    expect(v.claims).toBeGreaterThan(0);
    expect(v).toMatchObject({ supported: v.claims, unsupported: 0, coverage: 1, contradicted: 0, recited: 0 });
    for (const s of env.sources) for (const e of s.evidence) expect(e.recited).toBeUndefined();
  });
});
