import { collapse } from "../../util/collapse.ts";

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
};

/** Longest snippet kept per hit; the reader has the page or the abstract for the rest. */
export const SNIPPET_MAX = 400;

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

// A tag must start with a letter right after "<", so "p < 0.05 and q > 3" in an abstract survives.
const TAG = /<!--[\s\S]*?-->|<\/?[a-z][\w:.-]*(?:\s[^<>]{0,500})?\/?>/gi;

/** Provider markup to plain text: tags (JATS, <b> highlights) stripped, entities decoded, spaces collapsed. */
export function cleanText(s: unknown, max = 0): string {
  if (typeof s !== "string") return "";
  return collapse(decodeEntities(s.replace(TAG, " ")), max);
}

/** Only http(s) results are usable sources. */
export function isHttpUrl(u: unknown): u is string {
  if (typeof u !== "string") return false;
  try {
    const p = new URL(u).protocol;
    return p === "http:" || p === "https:";
  } catch {
    return false;
  }
}

/** DOI without its resolver prefix, lower-cased (DOIs compare case-insensitively). */
export function normalizeDoi(doi: unknown): string | undefined {
  if (typeof doi !== "string" || !doi) return undefined;
  let d = doi.trim().replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)/i, "");
  try {
    d = decodeURIComponent(d);
  } catch {
    /* keep the raw form */
  }
  d = d.toLowerCase();
  return /^10\.\d{4,9}\/\S+$/.test(d) ? d : undefined;
}

/** The DOI a doi.org link resolves, so a web hit on doi.org merges with the paper. */
export function doiFromUrl(url: string): string | undefined {
  try {
    const u = new URL(url);
    return /^(dx\.)?doi\.org$/i.test(u.hostname) ? normalizeDoi(u.pathname.slice(1)) : undefined;
  } catch {
    return undefined;
  }
}

/** A date-ish string to YYYY-MM-DD (or YYYY-MM, YYYY), else undefined. */
export function isoDate(v: unknown): string | undefined {
  if (typeof v !== "string" || !v) return undefined;
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(v.trim());
  if (m) return [m[1], m[2], m[3]].filter(Boolean).join("-");
  // Relative ages ("2 days ago") carry no date worth showing.
  if (/\bago\b/i.test(v)) return undefined;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return undefined;
  // "October 12, 2023" parses as local midnight; local parts keep the day the text names.
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
