import { getDocumentProxy, getMeta } from "unpdf";
import { FetchError } from "./fetch-error.ts";

/** Text of a PDF's first `maxPages` pages (long papers: the abstract and body come first). */
export async function pdfToText(bytes: Uint8Array, url: string, maxPages = 30): Promise<{ title?: string; text: string }> {
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const pages: string[] = [];
    const n = Math.min(pdf.numPages, maxPages);
    for (let i = 1; i <= n; i++) {
      const page = await pdf.getPage(i);
      const content = await page.getTextContent();
      pages.push(content.items.map((it) => ("str" in it ? it.str + (it.hasEOL ? "\n" : " ") : "")).join(""));
    }
    let title: string | undefined;
    try {
      const meta = await getMeta(pdf);
      const t = (meta.info as Record<string, unknown> | undefined)?.Title;
      if (typeof t === "string" && t.trim()) title = t.trim();
    } catch { /* metadata is optional */ }
    await pdf.cleanup?.();
    return { title, text: pages.join("\n\n").replace(/[ \t]+/g, " ").replace(/\n{3,}/g, "\n\n").trim() };
  } catch (e) {
    throw new FetchError("unsupported_type", url, `the PDF could not be read: ${(e as Error).message}`);
  }
}


