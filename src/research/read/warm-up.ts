import { extractMainText } from "./html-extract.ts";
import { pdfToText } from "./pdf.ts";

/** A one-page PDF built in memory (valid xref offsets), for warming the PDF reader. */
export function tinyPdf(lines: string[], title = "warm-up"): Uint8Array {
  const esc = (s: string) => s.replace(/[\\()]/g, (m) => `\\${m}`);
  const content = `BT /F1 11 Tf 72 740 Td 14 TL ${lines.map((l) => `(${esc(l)}) '`).join(" ")} ET`;
  const objs = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Title (${esc(title)}) >>`,
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objs.forEach((o, i) => { offsets.push(out.length); out += `${i + 1} 0 obj\n${o}\nendobj\n`; });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((n) => `${String(n).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

const SAMPLE_HTML = `<!doctype html><html><head><title>Warm-up</title></head><body><nav><a href="/">Home</a></nav>
<article><h1>Warm-up</h1>${"<p>Base editing converts one DNA letter into another, without cutting both strands.</p>".repeat(12)}</article>
<footer>© warm-up</footer></body></html>`;

/**
 * Runs the reading stage's parsers once. The first PDF costs ~130 ms (pdf.js loads and
 * initialises) and the first HTML page several ms of compilation; paid at start instead
 * of inside the first runs, where it held up every stream's events behind it.
 */
export async function warmUpReading(): Promise<void> {
  extractMainText(SAMPLE_HTML, "https://warm-up.invalid/");
  await pdfToText(tinyPdf(["Base editing converts single bases."]), "https://warm-up.invalid/paper.pdf");
}
