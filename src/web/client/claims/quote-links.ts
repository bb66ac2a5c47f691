/**
 * A link that opens a web page scrolled to a quote and highlighted: a text fragment
 * (`#:~:text=start,end`), which Chromium and Safari follow and other browsers ignore, opening
 * the page at its top. Long quotes are named by their first and last words, so a difference in
 * between (the page's own mark-up around a link, say) does not lose the match.
 */

/** Words at each end of a long quote. */
const END_WORDS = 4;

/** A text-fragment term: "-", "," and "&" have meanings in the directive and are escaped. */
const term = (words: string[]) => encodeURIComponent(words.join(" ")).replace(/-/g, "%2D");

export function quoteHref(url: string, quote: string): string | null {
  if (!/^https?:/i.test(url)) return null;
  const words = quote.trim().replace(/…$/, "").trim().split(/\s+/).filter(Boolean);
  if (!words.length) return null;
  const text =
    words.length <= END_WORDS * 2 ? term(words) : `${term(words.slice(0, END_WORDS))},${term(words.slice(-END_WORDS))}`;
  return `${url.replace(/#.*$/, "")}#:~:text=${text}`;
}
