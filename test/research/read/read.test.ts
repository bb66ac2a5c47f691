import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FetchError } from "../../../src/research/read/fetch-error.ts";
import { readCandidates } from "../../../src/research/read/read-all.ts";
import { readUrl } from "../../../src/research/read/read-url.ts";
import type { SearchHit } from "../../../src/research/search/types.ts";
import { extractMainText } from "../../../src/text/html-extract.ts";
import { ARTICLE_PARAGRAPHS, type PageServer, startPageServer } from "../../fixtures/page-server.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

let pages: PageServer;
beforeAll(() => {
  pages = startPageServer();
});
afterAll(() => pages.stop());
const opts = (extra: Record<string, unknown> = {}) => ({
  signal: AbortSignal.timeout(10_000),
  allowPrivate: true,
  ...extra,
});
const reason = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e) => (e instanceof FetchError ? e.reason : `untyped: ${e}`),
  );

describe("reading pages", () => {
  test("an article: main text without nav, cookie banner, sidebar, comments or footer; title, date, author", async () => {
    const doc = await readUrl(pages.url("/article/base-editing"), opts());
    expect(doc.kind).toBe("html");
    expect(doc.title).toBe("CRISPR base editing explained");
    expect(doc.published_at).toBe("2024-03-05");
    expect(doc.author).toBe("Dana Writer");
    for (const p of ARTICLE_PARAGRAPHS) expect(doc.text).toContain(p);
    for (const junk of ["About us", "cookies", "Ten weird tricks", "supplements", "All rights reserved"])
      expect(doc.text).not.toContain(junk);
  });

  test("redirects are followed up to 5 hops; a 6th is refused", async () => {
    const doc = await readUrl(pages.url("/redirect/5"), opts());
    expect(doc.final_url).toBe(pages.url("/article/base-editing"));
    expect(await reason(readUrl(pages.url("/redirect/6"), opts()))).toBe("too_many_redirects");
  });

  test("a page that never answers is cut at the timeout", async () => {
    const cut = await Promise.all(
      ["/hang", "/slow-body"].map((p) => reason(readUrl(pages.url(p), opts({ timeoutMs: 100 })))),
    );
    expect(cut).toEqual(["timeout", "timeout"]);
  });

  test("a 50 MB page is cut at the byte cap", async () => {
    expect(await reason(readUrl(pages.url("/big"), opts({ maxBytes: 5 * 1024 * 1024 })))).toBe("too_large");
  });

  test("PDF text, binary refused, tiny page refused, plain text read", async () => {
    const pdf = await readUrl(pages.url("/paper/nature17946.pdf"), opts());
    expect(pdf.kind).toBe("pdf");
    expect(pdf.text).toContain("Base editors convert cytidine to uridine");
    expect(pdf.title).toBe("Programmable base editing");
    expect(await reason(readUrl(pages.url("/binary"), opts()))).toBe("unsupported_type");
    expect(await reason(readUrl(pages.url("/tiny"), opts()))).toBe("empty");
    expect(await reason(readUrl(pages.url("/nope"), opts()))).toBe("http_status");
    expect((await readUrl(pages.url("/plain"), opts())).kind).toBe("text");
  });

  test("non-UTF-8 pages decode by header charset and by meta charset", async () => {
    const fr = await readUrl(pages.url("/cp1252"), opts());
    expect(fr.title).toBe("Café société");
    expect(fr.text).toContain("Le café « crème » coûte trois euros");
    const ja = await readUrl(pages.url("/sjis"), opts());
    expect(ja.text).toContain("塩基編集は");
  });

  test("readCandidates: academic hits fall back from PDF to page to abstract; the stage deadline cuts stragglers", async () => {
    const hits: SearchHit[] = [
      {
        url: pages.url("/paper/missing"),
        title: "Missing paper",
        snippet: "",
        provider: "openalex",
        type: "academic",
        abstract:
          "Adenine base editors convert A•T to G•C base pairs in mammalian cells efficiently and with few indels, complementing cytosine editors.",
      },
      {
        url: pages.url("/paper/nature17946"),
        pdf_url: pages.url("/paper/nature17946.pdf"),
        title: "Base editing",
        snippet: "",
        provider: "openalex",
        type: "academic",
      },
      { url: pages.url("/hang"), title: "Stuck", snippet: "", provider: "searxng", type: "web" },
      { url: pages.url("/article/review"), title: "Review", snippet: "", provider: "searxng", type: "web" },
    ];
    // The stage deadline passes on cue once the three answering hits are in: only it can cut
    // the stuck page (a page's own timeout is far off), whatever the machine's speed.
    const seen: string[] = [];
    let passDeadline: (() => void) | undefined;
    const res = await readCandidates(hits, {
      signal: new AbortController().signal,
      allowPrivate: true,
      perPageTimeoutMs: 600_000,
      stageTimer: (onDeadline) => {
        passDeadline = onDeadline;
        return () => {};
      },
      onResult: (r) => {
        seen.push(r.hit.title);
        if (seen.length === 3) passDeadline!();
      },
    });
    expect(seen.at(-1)).toBe("Stuck");
    expect(res.map((r) => r.used)).toEqual(["abstract", "page", "none", "page"]);
    expect(res[1]!.doc!.kind).toBe("pdf");
    expect(res[2]!.error).toMatchObject({ reason: "timeout", message: "cut at the reading stage's deadline" });
    expect(seen.sort()).toEqual(["Base editing", "Missing paper", "Review", "Stuck"]);
  });

  test("extractor keeps headings, lists and table text as separate lines and drops link lists", () => {
    const x =
      extractMainText(`<html><body><nav><a href="/">Home</a></nav><div class="post-content"><h2>Results of the trial</h2>
      <p>The treatment reduced symptoms in most patients, with few side effects reported over twelve weeks of follow-up in the study.</p>
      <ul><li>Primary endpoint met, with a relative reduction of forty percent.</li><li>No serious adverse events were recorded.</li></ul>
      <table><tr><td>Group</td><td>Responders</td></tr><tr><td>Treatment</td><td>62%</td></tr></table>
      <div class="inline"><a href="/1">Related one</a> <a href="/2">Related two</a> <a href="/3">Related three</a></div>
      <p>Researchers say larger trials are needed before the drug can be recommended, as the sample was small and short.</p></div></body></html>`);
    const lines = x.text.split("\n");
    expect(lines).toContain("Results of the trial");
    expect(lines).toContain("No serious adverse events were recorded.");
    expect(x.text).toContain("Treatment 62%");
    expect(x.text).not.toContain("Related two");
    expect(x.text).not.toContain("Home");
  });
});
