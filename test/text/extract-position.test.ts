import { describe, expect, test } from "bun:test";
import { extractMainText } from "../../src/text/html-extract.ts";

// Rules that read where a block stands on the page: near the headline, at the end of the text.
const ARTICLE = [
  "The committee met on Tuesday to review the proposal, which would expand the bus network into three new districts by next spring.",
  "Officials said the plan would be paid for by a mix of regional funds and a modest fare increase over the coming two years.",
  "Residents who spoke at the hearing were broadly supportive, though several asked for later evening services on weekdays.",
  "The first new routes are expected to open in March, with the remaining lines following once the new depot has been completed.",
  "Drivers and mechanics will be hired over the winter, the operator said, and trained at the old depot before the first routes open.",
];
const paras = (ps: string[]) => ps.map((p) => `<p>${p}</p>`).join("");
const page = (body: string) => `<!doctype html><html><head><title>Bus plan</title></head><body>${body}</body></html>`;

describe("position: where a block stands on the page", () => {
  test("a thread of posts far from the page's one headline does not outscore the text under it", () => {
    // Short posts full of commas, in a column of their own and not named as comments.
    const post = (i: number) =>
      `<div class="reply"><p>Reader ${i}: well, I think, on balance, that this is fine, though late, slow and costly.</p></div>`;
    const thread = Array.from({ length: 12 }, (_, i) => post(i)).join("");
    const x = extractMainText(
      page(
        `<div id="page"><div id="main"><div class="story"><div class="head"><h1>Bus network to grow</h1></div>` +
          `<div class="text">${paras(ARTICLE)}</div></div></div>` +
          `<div id="second-column"><div class="box"><div class="thread">${thread}</div></div></div></div>`,
      ),
    );
    for (const p of ARTICLE) expect(x.text).toContain(p);
    expect(x.text).not.toContain("Reader 3");
  });
});

describe("captions set without <figure>", () => {
  test("a box holding an image and a one-line credit goes, the paragraphs around it stay", () => {
    const box = `<div class="img-inline"><a href="/big.jpg"><img src="/small.jpg"></a><span>Photo: The new depot at dusk. © Jane Doe / Agency</span></div>`;
    const x = extractMainText(
      page(
        `<div class="story"><p>${ARTICLE[0]}</p><p>${ARTICLE[1]}</p>${box}<p>${ARTICLE[2]}</p><p>${ARTICLE[3]}</p></div>`,
      ),
    );
    for (const p of ARTICLE.slice(0, 4)) expect(x.text).toContain(p);
    expect(x.text).not.toContain("Jane Doe");
  });

  test("an image inside a paragraph leaves the paragraph's text alone", () => {
    const x = extractMainText(
      page(
        `<div class="story"><p>${ARTICLE[0]}</p><p><img src="/icon.png"> Short note on fares.</p><p>${ARTICLE[1]}</p><p>${ARTICLE[2]}</p></div>`,
      ),
    );
    expect(x.text).toContain("Short note on fares.");
  });
});
