import { afterAll, beforeAll, expect, test } from "bun:test";
import { loadConfig } from "../../../../src/config/load.ts";
import { buildEngine } from "../../../../src/research/build-engine.ts";
import { checkClaim, prepareEvidence } from "../../../../src/research/write/verify/check-claim.ts";
import { backing, judgeAll } from "../../../../src/research/write/verify/learned-check.ts";
import { createLogger } from "../../../../src/util/logger.ts";
import {
  type CitedPages,
  type Claims,
  citing,
  STATINS_AND_SLEEP,
  sentenceOf,
  startCitedPages,
} from "../../../fixtures/cited-pages.ts";
import { keyedClient, query, startTestServer } from "../../../helpers/server.ts";
import { readSse } from "../../../helpers/sse.ts";
import { useLongTimeout } from "../../../setup.ts";

useLongTimeout();

// Verdicts through the running server (README "Claims you can check"): a model (fixture speaking
// OpenAI's wire format) writes claims that turn their source's direction word, deny it, or
// change its figure; their markers go and their quotes stay, marked contradicted.
const PAGES = STATINS_AND_SLEEP;

/** The model's claims, each citing the page whose text holds `from`. */
const CLAIMS: Claims = [
  ["In adults over 65, statins raised the risk of type 2 diabetes by 9 percent.", "Statin use"],
  ["Statin use decreased the risk of type 2 diabetes in older adults.", "Statin use"],
  ["The trial followed 6,000 adults aged over 65 for ten years.", "Statin use"],
  ["Regular evening exercise did not improve sleep quality in participants.", "evening exercise"],
];

let world: CitedPages;
beforeAll(() => {
  world = startCitedPages(PAGES, ["statins"], (idOf) => citing(CLAIMS, idOf));
});
afterAll(() => world.stop());

const QUESTION = "What do statins do in older adults, and does evening exercise help sleep?";

test("a turned direction word, a denial and a changed figure lose their markers and keep their quotes as contradicted; a paraphrase keeps its marker", async () => {
  const env0 = {
    SEARXNG_URL: world.search.urls.searxng,
    ACADEMIC_PROVIDERS: "none",
    LOCAL_SEARCH: "off",
    FETCH_ALLOW_PRIVATE: "true",
    OPENAI_BASE_URL: world.chat.openaiBase,
  };
  const config = loadConfig({ PORT: "0", DATABASE_PATH: ":memory:", ...env0 }, "/nonexistent");
  const s = startTestServer({ engine: buildEngine(config, createLogger("silent")), env: env0 });
  try {
    const { key } = await keyedClient(s.url);
    const env = (await (await query(s.url, key, { query: QUESTION })).json()) as any;
    expect(env.status).toBe("ok");
    // The paraphrase keeps its marker; the other three sentences stay, uncited.
    expect(sentenceOf(env.answer, "In adults over 65")).toContain("[S1]");
    for (const [claim] of CLAIMS.slice(1)) expect(sentenceOf(env.answer, claim.slice(0, 20))).toBe(claim);
    expect(env.answer.match(/\[S\d+\]/g)).toEqual(["[S1]"]);
    // Each contradicted claim stays on its source with the sentence that says otherwise.
    const statins = env.sources.find((x: any) => x.url.endsWith("/statins"));
    expect(statins.id).toBe("S1");
    expect(statins.evidence.map((e: any) => [e.claim, e.verdict])).toEqual([
      [CLAIMS[0]![0], "supported"],
      [CLAIMS[1]![0], "contradicted"],
      [CLAIMS[2]![0], "contradicted"],
    ]);
    expect(statins.evidence[1].quote).toContain("Statin use increased the risk");
    // Support on the wire is the learned probability that the page backs the paraphrase, judged beside the run's other page, not the lexical score.
    const [page, other] = ["/statins", "/sleep"].map((u) => prepareEvidence([PAGES[u]![0], ...PAGES[u]![1]], "en"));
    const check = checkClaim(CLAIMS[0]![0], page!);
    const items = [
      { ev: page!, check },
      { ev: other!, check: checkClaim(CLAIMS[0]![0], other!) },
    ];
    expect(statins.evidence[0].support).toBeCloseTo(backing(judgeAll(CLAIMS[0]![0], items)[0]!), 3);
    expect(Math.abs(statins.evidence[0].support - check.support)).toBeGreaterThan(0.01);
    expect(statins.evidence[2].quote).toContain("4,000 adults");
    // The sleep page is cited by nothing now, and stays after the cited ones for what it says.
    const sleep = env.sources.find((x: any) => x.url.endsWith("/sleep"));
    expect(sleep.id).toBe("S2");
    expect(sleep.evidence).toEqual([
      expect.objectContaining({
        claim: CLAIMS[3]![0],
        verdict: "contradicted",
        quote: expect.stringContaining("improved sleep quality"),
      }),
    ]);
    expect(env.verification).toEqual({
      claims: 4,
      cited: 4,
      supported: 1,
      unsupported: 3,
      coverage: 0.25,
      contradicted: 3,
      recited: 0,
    });
    // The stream's final event carries the same verdicts.
    const st = await readSse(await query(s.url, key, { query: QUESTION }, {}, "/api/query/stream"));
    const final = st.events.at(-1)!.data;
    expect(final.verification).toEqual(env.verification);
    expect(final.sources.map((x: any) => x.evidence)).toEqual(env.sources.map((x: any) => x.evidence));
  } finally {
    await s.stop(100);
  }
});
