import { describe, expect, test } from "bun:test";
import { extractMainText } from "../../src/text/html-extract.ts";
import { repairShell } from "../../src/text/html-repair.ts";

const P = [
  "Die Stadtwerke haben am Dienstag angekündigt, das Fernwärmenetz bis zum Jahr 2030 auf erneuerbare Quellen umzustellen.",
  "Der Umbau soll rund vierzig Millionen Euro kosten und zum größten Teil aus Bundesmitteln finanziert werden, hieß es.",
  "Anwohner sollen in mehreren Bürgerversammlungen über die geplanten Baustellen in ihren Straßen informiert werden.",
];
const paras = (ps: string[]) => ps.map((p) => `<p>${p}</p>`).join("");

describe("malformed documents are read whole", () => {
  test("several <html> start tags (conditional comments for old browsers) leave the body readable", () => {
    const html = `<!DOCTYPE html>${[6, 7, 8]
      .map((v) => `<!--[if IE ${v} ]><!--><html lang="de" class="ie${v}"> <!--<![endif]-->`)
      .join(
        "\n",
      )}<html lang="de"><head><title>Fernwärme</title></head><body><article>${paras(P)}</article></body></html>`;
    const x = extractMainText(html);
    for (const p of P) expect(x.text).toContain(p);
    expect(x.lang).toBe("de");
  });

  test("a script between </head> and <body>, and text after a stray </body></html>, stay in the page", () => {
    const html = `<html><head><title>Fernwärme</title></head><script>var a = 1;</script>
      <body><div class="story">${paras(P.slice(0, 2))}</body></html>${paras(P.slice(2))}</div></html>`;
    const x = extractMainText(html);
    for (const p of P) expect(x.text).toContain(p);
  });

  test("a server's warning printed before <html> does not push the page out of the body", () => {
    const html = `<br /><b>Warning</b>: something failed on line <b>299</b><br />
      <!DOCTYPE html><html><head><title>Fernwärme</title></head><body><article>${paras(P)}</article></body></html>`;
    const x = extractMainText(html);
    for (const p of P) expect(x.text).toContain(p);
  });

  test("a template that opens <html><body> again after its own header still yields the article", () => {
    const html = `<!DOCTYPE html><head><title>Fernwärme</title></head><header class="top">Menü</header>
      <html><body><main>${paras(P)}</main></body></html></body></html>`;
    const x = extractMainText(html);
    for (const p of P) expect(x.text).toContain(p);
  });

  test("the repaired page has one html, head and body, the first head's content kept", () => {
    const out = repairShell(
      `<html lang="pl"><head><title>T</title></head><body a="1">x</body></html><html><body b="2">y</body>`,
    );
    expect(out.match(/<body/g)?.length).toBe(1);
    expect(out.match(/<html/g)?.length).toBe(1);
    expect(out).toContain('<html lang="pl"><head><title>T</title></head><body a="1">xy</body>');
  });
});
