import { describe, expect, test } from "bun:test";
import { extractMainText } from "../../src/text/html-extract.ts";

// Lines at the edges of the article's own container that are the publisher's — a dateline
// above the text, notes to the reader below it — told from the author's by shape alone.
const ARTICLE = [
  "The committee met on Tuesday to review the proposal, which would expand the bus network into three new districts by next spring.",
  "Officials said the plan, costing about twelve million euros, would be paid for by a mix of regional funds and a modest fare increase.",
  "Residents who spoke at the hearing were broadly supportive, though several asked for later evening services on weekdays and weekends.",
  "The first new routes are expected to open in March, with the remaining lines following once the new depot has been completed.",
];
const paras = (ps: string[]) => ps.map((p) => `<p>${p}</p>`).join("");
const page = (body: string) =>
  `<!doctype html><html><head><title>Bus plan</title></head><body><nav><a href="/">Home</a></nav>${body}</body></html>`;

describe("notes to the reader after the article", () => {
  test("an emphasised closing line that points elsewhere (a link, an address) goes", () => {
    const notes = [
      `<p><strong>Follow the Gazette on <a href="https://social.example/gazette">social media</a> for updates.</strong></p>`,
      `<p><em>Write to our city desk at desk@gazette.example with your tips.</em></p>`,
    ].join("");
    const x = extractMainText(page(`<div class="story">${paras(ARTICLE)}${notes}</div>`));
    for (const p of ARTICLE) expect(x.text).toContain(p);
    expect(x.text).not.toContain("Follow the Gazette");
    expect(x.text).not.toContain("Write to our city desk");
  });

  test("a closing heading that is a link (subscribe, related coverage) goes; the article's own headings stay", () => {
    const x = extractMainText(
      page(
        `<div class="story"><h2>The new routes</h2>${paras(ARTICLE)}<h3><a href="/subscribe">Click here to get the Gazette's morning briefing</a></h3></div>`,
      ),
    );
    for (const p of ARTICLE) expect(x.text).toContain(p);
    expect(x.text).toContain("The new routes");
    expect(x.text).not.toContain("morning briefing");
  });

  test("a closing line in bold that points nowhere, and a plain sentence with a link, stay", () => {
    const last = [
      `<p>The full proposal is <a href="/plan.pdf">published on the council's website</a> for anyone to read.</p>`,
      `<p><strong>The council votes on the plan next Thursday.</strong></p>`,
    ].join("");
    const x = extractMainText(page(`<div class="story">${paras(ARTICLE)}${last}</div>`));
    expect(x.text).toContain("published on the council's website for anyone to read.");
    expect(x.text).toContain("The council votes on the plan next Thursday.");
  });

  test("an emphasised paragraph with a link inside the article is not a closing note", () => {
    const quote = `<p><em>"We will <a href="/q">run buses all night</a>," the mayor promised in her statement.</em></p>`;
    const x = extractMainText(
      page(`<div class="story">${paras(ARTICLE.slice(0, 1))}${quote}${paras(ARTICLE.slice(1))}</div>`),
    );
    expect(x.text).toContain("run buses all night");
  });
});

describe("a dateline above the article", () => {
  test("a short line dating the article goes, in any script's digits", () => {
    for (const date of ["20 Nov, 2019 05:47", "Posted on 30.03.2015 by Admin", "١٢/٠٣/٢٠٢١"]) {
      const x = extractMainText(page(`<div class="story"><div>${date}</div>${paras(ARTICLE)}</div>`));
      for (const p of ARTICLE) expect(x.text).toContain(p);
      expect(x.text).not.toContain(date);
    }
  });

  test("a heading or a sentence that names a year stays", () => {
    const x = extractMainText(
      page(`<div class="story"><h2>The network in 2030</h2><p>The depot opened in 1998.</p>${paras(ARTICLE)}</div>`),
    );
    expect(x.text).toContain("The network in 2030");
    expect(x.text).toContain("The depot opened in 1998.");
  });
});

describe("a postscript after the article's last horizontal rule", () => {
  const about =
    "Gazette Media is a regional publisher with offices in four cities and a staff of two hundred, listed on the exchange since 2004.";

  test("a short part after the last rule (about the publisher, a disclaimer) goes", () => {
    const x = extractMainText(page(`<div class="story">${paras(ARTICLE)}<hr><p>${about}</p></div>`));
    for (const p of ARTICLE) expect(x.text).toContain(p);
    expect(x.text).not.toContain("Gazette Media is a regional publisher");
  });

  test("a rule that divides the article into parts leaves the second part alone", () => {
    const x = extractMainText(
      page(`<div class="story">${paras(ARTICLE.slice(0, 1))}<hr>${paras(ARTICLE.slice(1))}<p>${about}</p></div>`),
    );
    for (const p of ARTICLE) expect(x.text).toContain(p);
    expect(x.text).toContain("Gazette Media is a regional publisher");
  });
});
