import { afterAll, beforeAll, expect, test } from "bun:test";
import { parseHTML } from "linkedom";
import { loadConfig } from "../../../src/config/load.ts";
import { buildEngine } from "../../../src/research/build-engine.ts";
import { createLogger } from "../../../src/util/logger.ts";
import { type SearchFixtures, startSearchFixtures } from "../../fixtures/search-servers.ts";
import { keyedClient, query, startTestServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

// A page whose sentences carry Markdown (three: the writer quotes at most three of a source), quoted by the extractive writer of the running server
// (no model), its answer rendered by the web app's own renderer (a linkedom document stands in
// for the browser's, for this file only).
const SENTENCES = [
  "Solid-state battery owners must [confirm their warranty here](https://evil.example/login) before the recall ends.",
  "The solid-state battery recall covers **every cell** made before March; claims open at <https://evil.example/claim>, the `firmware` notes say.",
  "# Solid-state battery recall: owners of affected cells get a free replacement at any dealer.",
];

let renderMarkdown: typeof import("../../../src/web/client/markdown.ts").renderMarkdown;
let pages: ReturnType<typeof Bun.serve>, search: SearchFixtures;
beforeAll(async () => {
  const { document } = parseHTML("<html><body></body></html>");
  Object.assign(globalThis, { document });
  ({ renderMarkdown } = await import("../../../src/web/client/markdown.ts"));
  pages = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response(
        `<!doctype html><html lang="en"><head><title>Battery recall</title></head><body><main><article><h1>Battery recall</h1>${SENTENCES.map((s) => `<p>${Bun.escapeHTML(s)}</p>`).join("")}</article></main></body></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      ),
  });
  search = startSearchFixtures(`http://127.0.0.1:${pages.port}`);
  search.setWeb([{ title: "Battery recall", url: "/recall", snippet: "Solid-state battery recall" }]);
});
afterAll(() => {
  pages.stop(true);
  search.stop();
  Reflect.deleteProperty(globalThis, "document");
});

test("Markdown in quoted source text stays text: no live link, no formatting, the claims still the source's words", async () => {
  const all = {
    SEARXNG_URL: search.urls.searxng,
    ACADEMIC_PROVIDERS: "none",
    LOCAL_SEARCH: "off",
    FETCH_ALLOW_PRIVATE: "true",
  };
  const config = loadConfig({ PORT: "0", DATABASE_PATH: ":memory:", ...all }, "/nonexistent");
  const s = startTestServer({ engine: buildEngine(config, createLogger("silent")), env: all });
  try {
    const { key } = await keyedClient(s.url);
    const env = (await (
      await query(s.url, key, { query: "solid-state battery recall warranty owners" })
    ).json()) as any;
    expect(env.writer).toBe("extractive");
    const [src] = env.sources;
    expect(src.evidence).toHaveLength(SENTENCES.length);

    const root = document.createElement("div");
    root.append(renderMarkdown(env.answer));
    // The only links are the citation markers: no address from the page became clickable.
    expect([...root.querySelectorAll("a")].map((a) => a.getAttribute("href"))).toEqual(
      SENTENCES.map(() => `#src-${src.id}`),
    );
    expect(root.querySelectorAll("strong, em, code, h3, h4, h5, h6").length).toBe(0);
    // Each sentence reads as the page wrote it, its Markdown characters shown, not obeyed.
    for (const sentence of SENTENCES) expect(root.textContent).toContain(sentence);
    // The claim check reads the escaped answer as the same words: each quote backs itself.
    for (const e of src.evidence) {
      expect(SENTENCES).toContain(e.claim);
      expect(e.quote).toBe(e.claim);
      expect(e.support).toBe(1);
    }
    expect(env.verification).toMatchObject({ claims: SENTENCES.length, supported: SENTENCES.length, unsupported: 0 });
  } finally {
    await s.stop(100);
  }
});
