import { describe, expect, test } from "bun:test";
import iconv from "iconv-lite";
import { decodeText, sniffCharset } from "../../src/text/charset.ts";
import { extractMainText } from "../../src/text/html-extract.ts";

const ARTICLE = [
  "The committee met on Tuesday to review the proposal, which would expand the bus network into three new districts by next spring.",
  "Officials said the plan, costing about twelve million euros, would be paid for by a mix of regional funds and a modest fare increase.",
  "Residents who spoke at the hearing were broadly supportive, though several asked for later evening services on weekdays and weekends.",
];
const page = (body: string, head = "") => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe("main-text extraction", () => {
  test("reader comments marked up as <article>s are dropped with their thread", () => {
    const comments = Array.from(
      { length: 12 },
      (_, i) =>
        `<li class="comment"><article class="comment-body"><p>Reader ${i} says: this plan is a waste of money, and the buses are always late, always, every single day of the week.</p></article></li>`,
    ).join("");
    const x = extractMainText(
      page(`<main><article class="post"><h1>Bus plan</h1>${ARTICLE.map((p) => `<p>${p}</p>`).join("")}
      <footer class="entry-footer"><div id="comments" class="comments-area"><ol class="comment-list">${comments}</ol></div></footer></article></main>`),
    );
    for (const p of ARTICLE) expect(x.text).toContain(p);
    expect(x.text).not.toContain("Reader 3 says");
  });

  test("a hidden copy of the article is not read twice; text set straight in a div counts", () => {
    const x = extractMainText(
      page(`<div style="display:none"><div itemprop="articleBody">${ARTICLE.join(" ")}</div></div>
      <div class="story">${ARTICLE.join("<br>")}</div><div class="links"><a href="/a">Other story</a></div>`),
    );
    for (const p of ARTICLE) expect(x.text.split(p).length - 1).toBe(1);
  });

  test("teaser cards nested in the article and sidebars of teasers are left out", () => {
    const teaser = (n: number) =>
      `<article class="card"><h3><a href="/${n}">Teaser ${n}</a></h3><p>Teaser ${n} excerpt runs on for a while, with some commas, and a few more words to look like prose.</p></article>`;
    const x = extractMainText(
      page(`<div id="primary"><article class="post"><h1>Bus plan</h1>${ARTICLE.map((p) => `<p>${p}</p>`).join("")}${teaser(1)}${teaser(2)}</article></div>
      <aside class="widget-area">${[3, 4, 5, 6, 7, 8].map(teaser).join("")}</aside>`),
    );
    for (const p of ARTICLE) expect(x.text).toContain(p);
    for (const n of [1, 2, 5, 8]) expect(x.text).not.toContain(`Teaser ${n} excerpt`);
  });

  test("every card of a box of teasers inside the article goes, the last one too", () => {
    // Each card longer than the article: once its siblings are gone, the last card alone
    // is most of what its outer article still holds.
    const card = (n: number) => `<article class="card"><p>Card ${n}: ${ARTICLE.join(" ")} ${ARTICLE[0]}</p></article>`;
    const x = extractMainText(
      page(
        `<article class="post"><h1>Bus plan</h1>${ARTICLE.map((p) => `<p>${p}</p>`).join("")}<div class="box"><h2>More</h2>${[1, 2, 3].map(card).join("")}</div></article>`,
      ),
    );
    for (const p of ARTICLE) expect(x.text).toContain(p);
    for (const n of [1, 2, 3]) expect(x.text).not.toContain(`Card ${n}:`);
  });

  test("metadata: og:title first; else <title> without the site's name; dates and JSON-LD author", () => {
    const ld = `<script type="application/ld+json">{"@graph":[{"@type":"NewsArticle","datePublished":"2023-07-01T08:00:00+02:00","author":{"@type":"Person","name":"Ana Lima"}}]}</script>`;
    const x = extractMainText(
      page(
        `<p>${ARTICLE[0]}</p>`,
        `<title>Bus plan approved | City Gazette</title><meta property="og:site_name" content="City Gazette">${ld}`,
      ),
    );
    expect(x.title).toBe("Bus plan approved");
    expect(x.published_at).toBe("2023-07-01");
    expect(x.author).toBe("Ana Lima");
    expect(
      extractMainText(page("", "<title>Wikipedia - Buses</title>"), "https://en.wikipedia.org/wiki/Bus").title,
    ).toBe("Buses");
    expect(extractMainText(page("", "<title>Why X - and Y - matter</title>"), "https://news.example.com/").title).toBe(
      "Why X - and Y - matter",
    );
    expect(
      extractMainText(
        page(
          `<time datetime="2021-02-03">3 Feb</time>`,
          `<meta property="og:title" content="OG title"><title>T</title>`,
        ),
      ).title,
    ).toBe("OG title");
  });

  test("hostile nesting (tens of thousands of levels) yields the text instead of a stack overflow", () => {
    const deep = "<div class='x'>".repeat(30_000) + `<p>${ARTICLE[0]}</p>` + "</div>".repeat(30_000);
    expect(extractMainText(page(deep)).text).toContain(ARTICLE[0]!);
    expect(extractMainText("").text).toBe("");
    expect(extractMainText("no markup at all, just words").text).toBe("no markup at all, just words");
  });
});

describe("charset", () => {
  const cyr = "Новости науки: редактирование генома";
  test("header, then meta (charset or http-equiv), then UTF-8; BOM wins over both", () => {
    const cp1251 = iconv.encode(
      `<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"></head><body>${cyr}</body></html>`,
      "win1251",
    );
    expect(sniffCharset(cp1251, "text/html")).toBe("windows-1251");
    expect(decodeText(cp1251, "text/html")).toContain(cyr);
    // A bogus header label defers to the page's own declaration.
    expect(decodeText(cp1251, "text/html; charset=none")).toContain(cyr);
    const gbk = iconv.encode("<p>基因组编辑</p>", "gbk");
    expect(decodeText(gbk, "text/html; charset=GBK")).toBe("<p>基因组编辑</p>");
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("café")]);
    expect(decodeText(bom, "text/html; charset=iso-8859-1")).toBe("café");
    expect(sniffCharset(new TextEncoder().encode('<meta charset="utf-16"><p>x</p>'), "")).toBe("utf-8");
    expect(sniffCharset(new TextEncoder().encode("<p>plain</p>"), "")).toBe("utf-8");
  });
});

describe("headline", () => {
  const page = (head: string, top: string) => `<!doctype html><html><head>${head}</head><body><main><article>${top}
${"<p>Base editors convert one DNA letter into another without cutting both strands, which keeps unwanted insertions and deletions rare.</p>".repeat(4)}
</article></main></body></html>`;

  test("the headline (and a kicker above it) is the title, not the body's first line", () => {
    const x = extractMainText(
      page(
        "<title>Base editing, explained | Gene News</title>",
        "<p class=k>Science</p><h1>Base editing, explained</h1>",
      ),
      "https://genenews.example/a",
    );
    expect(x.title).toBe("Base editing, explained");
    expect(x.text.startsWith("Base editors convert")).toBe(true);
    expect(x.text).not.toContain("Science");
  });

  test("a heading that is not the title stays, and so does text further down that repeats it", () => {
    const x = extractMainText(
      page('<meta property="og:title" content="Something else">', "<h2>Why base editing matters</h2>"),
    );
    expect(x.text.startsWith("Why base editing matters")).toBe(true);
    const y = extractMainText(
      page(
        "<title>Base editors</title>",
        "<p>Intro line one.</p><p>Intro line two.</p><p>Intro line three.</p><h2>Base editors</h2>",
      ),
    );
    expect(y.text).toContain("Base editors\n");
  });
});
