const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", hellip: "…", mdash: "—", ndash: "–" };

/** Decodes the common named and numeric HTML entities. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const n = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** Provider text to plain text: tags (JATS, <b> highlights) stripped, entities decoded, spaces collapsed. */
export function cleanText(s: unknown, max = 0): string {
  if (typeof s !== "string") return "";
  const t = decodeEntities(s.replace(/<[^>]{0,500}>/g, " ")).replace(/\s+/g, " ").trim();
  return max > 0 && t.length > max ? t.slice(0, max - 1).replace(/\s+\S*$/, "") + "…" : t;
}

/** Only http(s) results are usable sources. */
export function isHttpUrl(u: unknown): u is string {
  if (typeof u !== "string") return false;
  try { const p = new URL(u).protocol; return p === "http:" || p === "https:"; } catch { return false; }
}

/** DOI without its resolver prefix, lower-cased (DOIs compare case-insensitively). */
export function normalizeDoi(doi: unknown): string | undefined {
  if (typeof doi !== "string" || !doi) return undefined;
  const d = doi.trim().replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:)/i, "").toLowerCase();
  return /^10\.\d{4,9}\/\S+$/.test(d) ? d : undefined;
}

/** A date-ish string to YYYY-MM-DD (or YYYY), else undefined. */
export function isoDate(v: unknown): string | undefined {
  if (typeof v !== "string" || !v) return undefined;
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(v);
  if (m) return [m[1], m[2], m[3]].filter(Boolean).join("-");
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString().slice(0, 10);
}

export const SNIPPET_MAX = 400;
