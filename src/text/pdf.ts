import { getDocumentProxy, getMeta } from "unpdf";
import { checkPdfStreams } from "./pdf-streams.ts";
import { capTitle } from "./title.ts";

/** A PDF's text and, when its metadata has one, its title. */
export interface PdfText {
  title?: string;
  text: string;
}

/**
 * Text of a PDF's first `maxPages` pages (long papers: the abstract and body come first).
 * Once `signal` aborts, no further page is read and what was read so far is returned. A PDF
 * that cannot be read throws an Error "the PDF could not be read: …", one whose streams inflate
 * past the limits of pdf-streams.ts a PdfTooLarge; the web reader types either as a FetchError
 * (research/read/doc-parser.ts), a collection import skips the file with the reason.
 */
export async function pdfToText(bytes: Uint8Array, maxPages = 30, signal?: AbortSignal): Promise<PdfText> {
  // Before pdf.js sees it: a stream past the limits throws PdfTooLarge, the file is not read.
  checkPdfStreams(bytes);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // pdf.js may transfer (detach) the buffer it is given: hand it a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes));
    const pages: string[] = [];
    const n = Math.min(pdf.numPages, maxPages);
    for (let i = 1; i <= n && !signal?.aborted; i++) {
      const page = await pdf.getPage(i);
      const content = await page.getTextContent();
      pages.push(content.items.map((it) => ("str" in it ? it.str + (it.hasEOL ? "\n" : " ") : "")).join(""));
    }
    let title: string | undefined;
    try {
      const meta = await getMeta(pdf);
      const t = (meta.info as Record<string, unknown> | undefined)?.Title;
      if (typeof t === "string" && t.trim()) title = capTitle(t);
    } catch {
      /* metadata is optional */
    }
    return {
      title,
      text: pages
        .join("\n\n")
        .replace(/[ \t]+/g, " ")
        .replace(/\n{3,}/g, "\n\n")
        .trim(),
    };
  } catch (e) {
    throw new Error(`the PDF could not be read: ${(e as Error).message}`);
  } finally {
    // Frees the parsed document (and its fake worker), not just per-page caches.
    await pdf?.loadingTask.destroy().catch(() => {});
  }
}
