import { describe, expect, test } from "bun:test";
import { extractMainText } from "../../src/text/html-extract.ts";

const ARTICLE = [
  "The committee met on Tuesday to review the proposal, which would expand the bus network into three new districts by next spring.",
  "Officials said the plan, costing about twelve million euros, would be paid for by a mix of regional funds and a modest fare increase.",
  "Residents who spoke at the hearing were broadly supportive, though several asked for later evening services on weekdays and weekends.",
  "The first new routes are expected to open in March, with the remaining lines following once the new depot has been completed.",
];
const paras = (ps: string[]) => ps.map((p) => `<p>${p}</p>`).join("");
const page = (body: string) => `<!doctype html><html><head><title>Bus plan</title></head><body>${body}</body></html>`;
// Other prose on the page, enough that a first pass which lost the article would settle for it.
const ABOUT = `<div class="about">${[
  "Our newsroom has covered the city and its districts since 1952, with a team of twelve reporters.",
  "We are funded by our readers and never by the companies or the parties we write about in our pages.",
  "Letters to the editor are welcome and are published every Saturday in print and in the online edition.",
  "Corrections are listed on a page of their own, with the date and the nature of every change that we make.",
]
  .map((p) => `<p>${p}</p>`)
  .join("")}</div>`;
const menu = (n: number, pad = "") =>
  `<ul class="menu">${Array.from({ length: n }, (_, i) => `${pad}<li>${pad}<a href="/${i}">Section ${i}</a>${pad}</li>`).join("")}</ul>`;

describe("furniture is judged by what a block is, not by its name", () => {
  test("indentation and menus do not make the article's container look small next to its name", () => {
    // Page builders name every box a "widget"; deep indentation is most of the raw text.
    const pad = `\n${" ".repeat(400)}`;
    const x = extractMainText(
      page(`${menu(30, pad)}<div class="elementor-widget-container">${paras(ARTICLE)}</div>${menu(30, pad)}${ABOUT}`),
    );
    for (const p of ARTICLE) expect(x.text).toContain(p);
  });

  test("one block kind repeated down the page that holds its prose is the article, whatever its name", () => {
    const sections = ARTICLE.map(
      (p, i) =>
        `<div class="gallery-section${i ? " is-next" : ""}"><h2>Part ${i + 1}</h2><p>${p}</p><p>${p.toUpperCase()}</p></div>`,
    ).join("");
    const x = extractMainText(
      page(`<main><div class="gallery">${sections}</div></main><footer>${menu(5)}</footer>${ABOUT}`),
    );
    for (const p of ARTICLE) expect(x.text).toContain(p);
  });

  test("a list of comments, long and full of commas, does not win over the article it follows", () => {
    const comment = (i: number) =>
      `<li>Reader ${i}: well, I think, on balance, that this is fine, though, frankly, late, slow, and costly, as usual, again.</li>`;
    const x = extractMainText(
      page(
        `<div class="entry">${paras(ARTICLE)}</div><ul class="thread">${Array.from({ length: 12 }, (_, i) => comment(i)).join("")}</ul>`,
      ),
    );
    for (const p of ARTICLE) expect(x.text).toContain(p);
  });

  test("a class name that sounds like content does not outweigh several paragraphs of text", () => {
    const more = [
      "Drivers, mechanics and planners will be hired over the winter, the operator said, and trained at the old depot.",
      "Fares for pupils, students and pensioners will stay as they are, according to the draft, at least until next year.",
    ];
    const teaser = "Another story with a summary that runs on for a good while to look like a paragraph of real prose";
    const x = extractMainText(
      page(`<div class="field field-label-hidden"><div class="items">${paras([...ARTICLE, ...more])}</div></div>
      <div class="views"><div class="views-field-body">${paras([1, 2, 3, 4].map((n) => `${teaser} ${n}`))}</div></div>`),
    );
    for (const p of [...ARTICLE, ...more]) expect(x.text).toContain(p);
  });

  test("the lead, set in its own box between the headline and the body, belongs to the article", () => {
    const lead = "The city will spend twelve million euros on three new bus lines, the council decided on Tuesday.";
    const x = extractMainText(
      page(`<div class="head"><h1>Bus plan approved</h1><div class="intro"><p>${lead}</p></div><p class="by">By Ana Lima</p></div>
      <div class="body"><div class="text">${paras(ARTICLE)}</div></div>`),
    );
    expect(x.text.startsWith(lead)).toBe(true);
    for (const p of ARTICLE) expect(x.text).toContain(p);
    expect(x.text).not.toContain("By Ana Lima");
  });

  test('a paragraph that is a link with a label ("read also") is not the article\'s text', () => {
    const x = extractMainText(
      page(
        `<article>${paras(ARTICLE.slice(0, 2))}<p>Czytaj też: <a href="/other">Minister announces a new rail line for the northern suburbs</a></p>${paras(ARTICLE.slice(2))}</article>`,
      ),
    );
    for (const p of ARTICLE) expect(x.text).toContain(p);
    expect(x.text).not.toContain("rail line");
  });

  test("rights lines and a trailing run of short labels go; a single sign-off line stays", () => {
    const tail = ["© 2024 City Gazette. All rights reserved", "Tags", "Buses", "Share this", "12.03.2024"];
    const x = extractMainText(page(`<article>${paras(ARTICLE)}${paras(tail)}</article>`));
    for (const p of ARTICLE) expect(x.text).toContain(p);
    for (const t of tail) expect(x.text).not.toContain(t);
    const y = extractMainText(page(`<article>${paras(ARTICLE)}<p>Yours, Ana</p></article>`));
    expect(y.text.endsWith("Yours, Ana")).toBe(true);
  });

  test("the links to the previous and next posts, with their teasers, are not the article", () => {
    const neighbour = (side: string, n: number) =>
      `<div class="${side}"><a href="/${n}"><h5>Depot plans for district ${n}</h5></a><p>The operator's other depot plans run over budget and behind schedule, says the report.</p></div>`;
    const x = extractMainText(
      page(
        `<div class="story">${paras(ARTICLE)}<div class="grid">${neighbour("prev", 1)}${neighbour("next", 2)}</div></div>`,
      ),
    );
    for (const p of ARTICLE) expect(x.text).toContain(p);
    expect(x.text).not.toContain("other depot plans");
  });
});
