import { describe, expect, test } from "bun:test";
import { extractMainText } from "../../src/text/html-extract.ts";

const ARTICLE = [
  "The committee met on Tuesday to review the proposal, which would expand the bus network into three new districts by next spring.",
  "Officials said the plan, costing about twelve million euros, would be paid for by a mix of regional funds and a modest fare increase.",
  "Residents who spoke at the hearing were broadly supportive, though several asked for later evening services on weekdays and weekends.",
];
const paras = (ps: string[]) => ps.map((p) => `<p>${p}</p>`).join("");
const page = (body: string, head = "") =>
  `<!doctype html><html><head><title>Bus plan</title>${head}</head><body>${body}</body></html>`;
const nav = `<nav><a href="/">Home</a> <a href="/news">News</a></nav>`;

describe("fallbacks when the first pass finds little prose", () => {
  test("the article stated as data (JSON-LD articleBody) when the page renders it by script", () => {
    const ld = JSON.stringify({ "@type": "NewsArticle", headline: "Bus plan", articleBody: ARTICLE.join("\n") });
    const x = extractMainText(
      page(`${nav}<div id="app">Loading…</div>`, `<script type="application/ld+json">${ld}</script>`),
    );
    for (const p of ARTICLE) expect(x.text).toContain(p);
  });

  test("a <noscript> copy of the article when that is all the page has", () => {
    const x = extractMainText(page(`${nav}<div id="app"></div><noscript><div>${paras(ARTICLE)}</div></noscript>`));
    for (const p of ARTICLE) expect(x.text).toContain(p);
  });

  test("without name rules, text in a block named like furniture is found (a thread of posts)", () => {
    // Posts in list items: only a container-based pass reads them, not a paragraph baseline.
    const posts = ARTICLE.map((p) => `<li class="comment">${p}</li>`).join("");
    const x = extractMainText(page(`${nav}<div id="comments" class="comments-area"><ol>${posts}</ol></div>`));
    for (const p of ARTICLE) expect(x.text).toContain(p);
  });

  test("all paragraph-like text when the article is spread over containers that none holds", () => {
    const parts = ["North", "South", "East", "West"].map((side, i) => [
      `${side}: ${ARTICLE[i % 3]}`,
      `${side}, again: ${ARTICLE[(i + 1) % 3]}`,
    ]);
    const columns = parts.map((ps, i) => `<div class="col-${i}"><div class="social-${i}">${paras(ps)}</div></div>`);
    const x = extractMainText(page(`${nav}${columns.join("")}`));
    for (const p of parts.flat()) expect(x.text).toContain(p);
  });

  test("a first pass holding under a third of the page's prose is in doubt: the fallbacks are tried", () => {
    // Eight one-paragraph rows outweigh a compact box only taken together.
    const rows = Array.from(
      { length: 8 },
      (_, i) => `<div class="row"><div class="col"><p>Part ${i + 1}. ${ARTICLE[i % 3]}</p></div></div>`,
    );
    const about = `<div class="about">${paras([
      "Our newsroom has covered the city and its districts since 1952 with a team of twelve reporters.",
      "We are funded by our readers and never by the companies or the parties we write about in our pages.",
      "Letters to the editor are welcome and are published every Saturday in print and in the online edition.",
      "Corrections are listed on a page of their own with the date and the nature of every change that we make.",
    ])}</div>`;
    const x = extractMainText(page(`${nav}${rows.join("")}${about}`));
    for (let i = 1; i <= 8; i++) expect(x.text).toContain(`Part ${i}. `);
  });

  test("a short article stays short: a fallback must offer clearly more prose, not the comments too", () => {
    const comment = "<p>Great news, finally some buses for our part of town, thanks to the council!</p>";
    const x = extractMainText(
      page(`<article>${paras(ARTICLE.slice(0, 2))}</article><div class="comments">${comment.repeat(3)}</div>`),
    );
    for (const p of ARTICLE.slice(0, 2)) expect(x.text).toContain(p);
    expect(x.text).not.toContain("Great news");
  });

  test("a short Chinese article counts as enough prose: no fallback pulls in the comments", () => {
    const zh = [
      "市政府周二宣布，将在明年春天之前把公交网络扩展到三个新的城区，新线路预计三月开通。",
      "官员表示，这项计划约需一千二百万欧元，资金来自地区基金和小幅票价上调，居民普遍表示支持。",
      "在听证会上发言的居民大多支持该计划，但也有人要求在工作日和周末增加夜间班次的服务。",
    ];
    const comments = Array.from(
      { length: 6 },
      (_, i) => `<p>Comment ${i}: this is a long reader comment in English, going on and on about buses and fares.</p>`,
    ).join("");
    const x = extractMainText(page(`<article>${paras(zh)}</article><div class="comments">${comments}</div>`));
    for (const p of zh) expect(x.text).toContain(p);
    expect(x.text).not.toContain("Comment 2");
  });
});
