import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../../../src/config/load.ts";
import { buildEngine } from "../../../../src/research/build-engine.ts";
import { createLogger } from "../../../../src/util/logger.ts";
import { type ChatServer, isPlannerCall, startChatServer } from "../../../fixtures/chat-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../../../fixtures/search-servers.ts";
import { type Client, keyedClient, query, startTestServer, type TestServer } from "../../../helpers/server.ts";
import { readSse } from "../../../helpers/sse.ts";
import { useLongTimeout } from "../../../setup.ts";

useLongTimeout();

// Claims you can check (README "Claims you can check"), through the running server: real pages
// read over HTTP, a model (fixture speaking OpenAI's wire format) writing the answer's claims.
const PAGES: Record<string, [title: string, paragraphs: string[], lang: string]> = {
  "/battery": [
    "Solid-state cells in the lab",
    [
      "Solid-state batteries promise more energy in less space.",
      "The team built a pouch cell with a sulfide electrolyte and a lithium metal anode. After 1,000 cycles, the solid-state cell retained 80 percent of its original capacity.",
      "Manufacturing at scale remains the main obstacle, the authors wrote. The electrolyte reacts with moisture, so every step needs a dry room.",
    ],
    "en",
  ],
  "/coffee": [
    "How coffee is grown",
    [
      "Coffee plants grow best at altitudes between 1,200 and 2,000 metres.",
      "Arabica beans are picked by hand in most of Ethiopia, where the plant first grew.",
      "Roasting turns the green beans brown and releases their oils.",
    ],
    "en",
  ],
  "/klima": [
    "Klimaziele der Regierung",
    [
      "Der Bericht erschien im März und fasst die Debatte zusammen.",
      "Die Bundesregierung hat im Jahr 2021 deutlich strengere Klimaziele beschlossen. Die Opposition kritisierte das Tempo der Umsetzung.",
      "Für den Verkehr und die Gebäude gelten seitdem eigene Jahresbudgets, die ein unabhängiger Rat jedes Jahr überprüft.",
      "Verfehlt ein Bereich sein Budget, muss das zuständige Ministerium innerhalb von drei Monaten ein Sofortprogramm vorlegen.",
    ],
    "de",
  ],
  "/dianchi": [
    "固态电池研究",
    [
      "研究团队使用了硫化物电解质和锂金属负极，制作了一块软包电池。",
      "研究人员发现，该电池在1000次循环后仍保持80%的容量。",
      "量产仍然是主要障碍，因为电解质遇到水分会发生反应，所以每一个生产步骤都需要在干燥的房间里完成。",
      "作者认为，如果能够解决制造问题，固态电池将在五年内进入电动汽车市场。",
    ],
    "zh",
  ],
};

const page = (path: string) => {
  const [title, paras, lang] = PAGES[path]!;
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title></head><body><main><article><h1>${title}</h1>${paras.map((p) => `<p>${p}</p>`).join("")}</article></main></body></html>`;
};

/** The model's answer per question: claims citing the source whose text holds `from`. */
const ANSWERS: Record<string, { lang: string; claims: [claim: string, from: string][] }> = {
  battery: {
    lang: "en",
    claims: [
      ["The solid-state cell kept 80 percent of its capacity after 1000 cycles.", "solid-state cell retained"],
      ["The solid-state cell kept 60 percent of its capacity after 1000 cycles.", "solid-state cell retained"],
      ["Arabica beans are mostly picked by hand in Ethiopia.", "solid-state cell retained"],
      ["Arabica beans are picked by hand in Ethiopia.", "Arabica beans"],
    ],
  },
  klima: {
    lang: "de",
    claims: [
      ["Strengere Klimaziele wurden 2021 von der Bundesregierung beschlossen.", "Bundesregierung"],
      ["Strengere Klimaziele wurden 2019 von der Bundesregierung beschlossen.", "Bundesregierung"],
    ],
  },
  dianchi: {
    lang: "zh",
    claims: [
      ["该电池在1000次循环后保留了80%的容量。", "1000次循环"],
      ["该电池在1000次循环后保留了60%的容量。", "1000次循环"],
    ],
  },
};

let pages: ReturnType<typeof Bun.serve>, search: SearchFixtures, chat: ChatServer;
beforeAll(() => {
  pages = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname;
      return PAGES[path]
        ? new Response(page(path), { headers: { "content-type": "text/html; charset=utf-8" } })
        : new Response("not found", { status: 404 });
    },
  });
  search = startSearchFixtures(`http://127.0.0.1:${pages.port}`);
  chat = startChatServer((b) => {
    const user = b.messages.find((m) => m.role === "user")!.content;
    const topic = Object.keys(ANSWERS).find((k) => user.includes(`[${k}]`)) ?? "battery";
    const a = ANSWERS[topic]!;
    if (isPlannerCall(b)) return { text: JSON.stringify({ kind: "general", language: a.lang, queries: [topic] }) };
    const blocks = [...user.matchAll(/<source id="(S\d+)"[^>]*>\n([\s\S]*?)\n<\/source>/g)];
    const idOf = (from: string) => blocks.find((m) => m[2]!.includes(from))?.[1] ?? "S9";
    // Each marker before its sentence's full stop, as models mostly write them.
    return {
      text: a.claims.map(([claim, from]) => claim.replace(/[.。]$/, (end) => ` [${idOf(from)}]${end}`)).join(" "),
    };
  });
});
afterAll(() => {
  pages.stop(true);
  search.stop();
  chat.stop();
});

async function withServer<T>(
  env: Record<string, string>,
  fn: (s: TestServer, key: string, c: Client) => Promise<T>,
): Promise<T> {
  const all = {
    SEARXNG_URL: search.urls.searxng,
    ACADEMIC_PROVIDERS: "none",
    LOCAL_SEARCH: "off",
    FETCH_ALLOW_PRIVATE: "true",
    ...env,
  };
  const config = loadConfig({ PORT: "0", DATABASE_PATH: ":memory:", ...all }, "/nonexistent");
  const s = startTestServer({ engine: buildEngine(config, createLogger("silent")), env: all });
  try {
    const { key, c } = await keyedClient(s.url);
    return await fn(s, key, c);
  } finally {
    await s.stop(100);
  }
}

const web = (paths: string[]) =>
  search.setWeb(paths.map((p) => ({ title: PAGES[p]![0], url: p, snippet: PAGES[p]![1][0]!.slice(0, 80) })));

const sentenceOf = (answer: string, start: string) =>
  answer.split(/(?<=[.。])\s*/).find((s) => s.startsWith(start)) ?? "";

describe("claims you can check, with a model writing", () => {
  test("a supported paraphrase keeps its marker and quote; a wrong number loses its marker and a swapped one moves to the source that backs it; stream, JSON and replay agree", async () => {
    web(["/battery", "/coffee"]);
    await withServer({ OPENAI_BASE_URL: chat.openaiBase }, async (s, key, c) => {
      const body = {
        query: "What did the [battery] study find about solid-state cells, and how are coffee beans picked?",
      };
      const res = await query(s.url, key, body, { "idempotency-key": "claims-1" });
      const env = (await res.json()) as any;
      expect(env.status).toBe("ok");
      const battery = env.sources.find((x: any) => x.url.endsWith("/battery"));
      const coffee = env.sources.find((x: any) => x.url.endsWith("/coffee"));
      // The paraphrase: kept, with the source's own sentence as its quote.
      expect(sentenceOf(env.answer, "The solid-state cell kept 80")).toContain(`[${battery.id}]`);
      const e80 = battery.evidence.find((e: any) => e.claim.includes("80 percent"));
      expect(e80.quote).toContain(
        "After 1,000 cycles, the solid-state cell retained 80 percent of its original capacity.",
      );
      expect(e80.support).toBeGreaterThanOrEqual(0.45);
      // The wrong number: the sentence stays, uncited. The swapped marker: moved to the coffee page, which backs it.
      expect(sentenceOf(env.answer, "The solid-state cell kept 60")).toBe(
        "The solid-state cell kept 60 percent of its capacity after 1000 cycles.",
      );
      expect(sentenceOf(env.answer, "Arabica beans are mostly")).toBe(
        `Arabica beans are mostly picked by hand in Ethiopia [${coffee.id}].`,
      );
      // The wrong number stays listed on its source as contradicted, with the sentence that says otherwise.
      expect(battery.evidence.map((e: any) => [e.claim, e.verdict])).toEqual([
        ["The solid-state cell kept 80 percent of its capacity after 1000 cycles.", "supported"],
        ["The solid-state cell kept 60 percent of its capacity after 1000 cycles.", "contradicted"],
      ]);
      expect(battery.evidence[1].quote).toContain("retained 80 percent");
      // The right marker on the coffee claim stays; the moved one is listed there as re-cited.
      expect(sentenceOf(env.answer, "Arabica beans are picked")).toContain(`[${coffee.id}]`);
      expect(coffee.evidence.map((e: any) => [e.claim.slice(0, 24), e.verdict, e.recited])).toEqual([
        ["Arabica beans are mostly", "supported", true],
        ["Arabica beans are picked", "supported", undefined],
      ]);
      expect(coffee.evidence[1].quote).toContain("Arabica beans are picked by hand in most of Ethiopia");
      expect(env.verification).toEqual({
        claims: 4,
        cited: 4,
        supported: 3,
        unsupported: 1,
        coverage: 0.75,
        contradicted: 1,
        recited: 1,
      });
      for (const src of env.sources)
        for (const e of src.evidence) {
          expect(e.quote.length).toBeLessThanOrEqual(400);
          expect(PAGES[new URL(src.url).pathname]![1].join(" ")).toContain(e.quote);
        }

      // The same call again: the stored envelope, evidence and verification included.
      const again = (await (await query(s.url, key, body, { "idempotency-key": "claims-1" })).json()) as any;
      expect(again).toEqual(env);

      // The stream: a verifying progress with the counts before final, and the same evidence.
      const st = await readSse(await query(s.url, key, body, {}, "/api/query/stream"));
      const names = st.events.map((e) => e.event);
      const verifying = st.events.findIndex((e) => e.event === "progress" && e.data.stage === "verifying");
      expect(verifying).toBeGreaterThan(0);
      expect(verifying).toBeLessThan(names.lastIndexOf("final"));
      expect(st.events[verifying]!.data).toMatchObject(env.verification);
      const final = st.events.at(-1)!.data;
      expect(final.verification).toEqual(env.verification);
      expect(final.sources.map((x: any) => x.evidence)).toEqual(env.sources.map((x: any) => x.evidence));
      expect(final.answer).toBe(env.answer);

      // Rejoining the stream after its first event (Last-Event-ID): the verifying progress and the same final.
      const resumed = await readSse(
        await query(s.url, key, null, { "last-event-id": `${final.request_id}:1` }, "/api/query/stream"),
      );
      expect(resumed.events.find((e) => e.event === "progress" && e.data.stage === "verifying")!.data).toEqual(
        st.events[verifying]!.data,
      );
      expect(resumed.events.at(-1)!.data).toEqual(final);

      // The Console's timeline of the run: the same counts, the same quotes, the verifying entry.
      const timeline = (await (await c.req("GET", `/api/console/runs/${env.request_id}`)).json()) as any;
      expect(timeline.verification).toEqual(env.verification);
      expect(timeline.sources).toEqual(env.sources);
      expect(timeline.events.find((e: any) => e.stage === "verifying")).toMatchObject(env.verification);
    });
  });

  test("German and Chinese answers are checked in their own language", async () => {
    for (const [topic, path, keep, drop] of [
      ["klima", "/klima", "Strengere Klimaziele wurden 2021", "Strengere Klimaziele wurden 2019"],
      ["dianchi", "/dianchi", "该电池在1000次循环后保留了80%", "该电池在1000次循环后保留了60%"],
    ] as const) {
      web([path]);
      await withServer({ OPENAI_BASE_URL: chat.openaiBase }, async (s, key) => {
        const env = (await (await query(s.url, key, { query: `Was wurde beschlossen? [${topic}]` })).json()) as any;
        expect(env.status).toBe("ok");
        expect(env.sources).toHaveLength(1);
        const [src] = env.sources;
        expect(src.evidence.map((e: any) => e.claim)).toEqual([ANSWERS[topic]!.claims[0]![0]]);
        expect(src.evidence[0].support).toBeGreaterThanOrEqual(0.45);
        expect(PAGES[path]![1].join(" ")).toContain(src.evidence[0].quote);
        expect(sentenceOf(env.answer, keep)).toContain("[S1]");
        expect(sentenceOf(env.answer, drop)).not.toContain("[S");
        expect(env.verification).toMatchObject({ claims: 2, cited: 2, supported: 1, unsupported: 1 });
      });
    }
  });
});

test("the extractive writer's quotes back their own sentences: every citation scores 1", async () => {
  web(["/battery", "/coffee"]);
  await withServer({}, async (s, key) => {
    const env = (await (
      await query(s.url, key, { query: "solid-state cells capacity cycles coffee beans" })
    ).json()) as any;
    expect(env.writer).toBe("extractive");
    const all = env.sources.flatMap((x: any) => x.evidence);
    expect(all.length).toBeGreaterThan(1);
    for (const e of all) {
      expect(e.support).toBe(1);
      expect(e.verdict).toBe("supported");
      expect(e.quote).toBe(e.claim);
    }
    expect(env.verification.unsupported).toBe(0);
    expect(env.verification.contradicted).toBe(0);
    expect(env.verification.supported).toBe(env.verification.cited);
  });
});
