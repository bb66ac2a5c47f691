/**
 * The article text a page states as data: schema.org `articleBody` (or `text`) in JSON-LD.
 * Pages that render their story by script often carry it only there; it is the
 * publisher's own word on what the article is, so it needs no layout heuristics.
 */
export function structuredBody(doc: Document): string {
  let best = "";
  const visit = (v: unknown, depth: number): void => {
    if (depth > 8 || !v || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if ((k === "articleBody" || k === "text") && typeof x === "string" && x.length > best.length) best = x;
      else if (typeof x === "object") visit(x, depth + 1);
    }
  };
  for (const s of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      visit(JSON.parse(s.textContent ?? ""), 0);
    } catch {
      /* broken JSON-LD says nothing */
    }
  }
  // Some publishers put HTML in the string; the reader wants its text, one paragraph a line.
  return best
    .replace(/<\/?(p|br|div|h\d|li)\b[^>]*>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
}
