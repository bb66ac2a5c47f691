import { capTitle } from "./title.ts";

/** Page metadata a source object can carry. */
export interface PageMeta {
  title: string;
  published_at?: string;
  author?: string;
  lang?: string;
}

/**
 * The page's <meta> values by `property=`, `name=` and `itemprop=` key, first one winning as
 * a selector would: one pass over the document instead of one search per field.
 */
function metaIndex(doc: Document): (key: string) => string | undefined {
  const index = new Map<string, string>();
  for (const m of Array.from(doc.querySelectorAll("meta"))) {
    const content = m.getAttribute("content")?.trim();
    if (!content) continue;
    for (const a of ["property", "name", "itemprop"]) {
      const v = m.getAttribute(a);
      if (v && !index.has(`${a}=${v}`)) index.set(`${a}=${v}`, content);
    }
  }
  return (key) => index.get(key);
}

function fromJsonLd(doc: Document): { date?: string; author?: string; headline?: string } {
  for (const s of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      const data = JSON.parse(s.textContent ?? "");
      const items: unknown[] = Array.isArray(data) ? data : Array.isArray(data?.["@graph"]) ? data["@graph"] : [data];
      for (const it of items as Record<string, unknown>[]) {
        if (!it || typeof it !== "object") continue;
        const date = typeof it.datePublished === "string" ? it.datePublished : undefined;
        const a = Array.isArray(it.author) ? it.author[0] : it.author;
        const author =
          typeof a === "string"
            ? a
            : typeof (a as { name?: unknown })?.name === "string"
              ? (a as { name: string }).name
              : undefined;
        const headline = typeof it.headline === "string" ? it.headline : undefined;
        if (date || author || headline) return { date, author, headline };
      }
    } catch {
      /* ignore broken JSON-LD */
    }
  }
  return {};
}

/**
 * "Article title | Site Name" → "Article title" when a segment names the site (og:site_name,
 * or the host's main label): <title> carries the site, a source list needs the article.
 */
function withoutSiteName(title: string, siteName: string | undefined, url: string | undefined): string {
  const parts = title.split(/\s+[|–—·»:-]\s+/);
  if (parts.length < 2) return title;
  let label = "";
  try {
    label = url
      ? (new URL(url).hostname
          .replace(/^www\./, "")
          .split(".")
          .slice(-2, -1)[0] ?? "")
      : "";
  } catch {
    /* no host to compare */
  }
  const squash = (x: string) => x.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  const isSite = (x: string) =>
    x.split(/\s+/).length <= 5 &&
    ((siteName && squash(x) === squash(siteName)) || (label.length >= 3 && squash(x).includes(label)));
  const last = parts[parts.length - 1]!,
    first = parts[0]!;
  if (isSite(last))
    return title
      .slice(0, title.lastIndexOf(last))
      .replace(/\s+[|–—·»:-]\s*$/, "")
      .trim();
  if (isSite(first))
    return title
      .slice(first.length)
      .replace(/^\s*[|–—·»:-]\s+/, "")
      .trim();
  return title;
}

/** Title, date, author and language, from the places publishers put them. Call before scripts are removed. */
export function readMeta(doc: Document, url?: string): PageMeta {
  const ld = fromJsonLd(doc);
  const meta = metaIndex(doc);
  const docTitle = doc.querySelector("title")?.textContent?.trim() || undefined;
  const title =
    meta("property=og:title") ??
    meta("name=twitter:title") ??
    ld.headline ??
    (docTitle && withoutSiteName(docTitle, meta("property=og:site_name"), url)) ??
    doc.querySelector("h1")?.textContent?.trim() ??
    "";
  const date =
    meta("property=article:published_time") ??
    meta("itemprop=datePublished") ??
    meta("name=date") ??
    meta("name=dc.date") ??
    meta("name=DC.date.issued") ??
    ld.date ??
    doc.querySelector("time[datetime]")?.getAttribute("datetime") ??
    undefined;
  const author = meta("name=author") ?? meta("property=article:author") ?? ld.author;
  const d = date ? new Date(date) : null;
  return {
    title: capTitle(title),
    published_at: d && !Number.isNaN(d.getTime()) ? d.toISOString().slice(0, 10) : undefined,
    author: author && !/^https?:/.test(author) ? author.slice(0, 200) : undefined,
    lang: doc.documentElement?.getAttribute("lang")?.trim().slice(0, 20) || undefined,
  };
}
