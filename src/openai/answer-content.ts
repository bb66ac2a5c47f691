import type { Envelope, Source } from "../contract/envelope.ts";
import { MARKER_GROUP, numbersIn } from "../research/write/markers.ts";

/** OpenAI's citation of a web page by a span of the message's content. */
interface UrlCitation {
  type: "url_citation";
  url_citation: { url: string; title: string; start_index: number; end_index: number };
}

/** Quotes shown under a source: enough to check it at a glance, not the whole evidence list. */
const QUOTES_PER_SOURCE = 2;

/** A quote on one line of a block quote: its own line breaks would end the quote. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** Markdown's link text and destination, escaped so a title cannot end the link or start another. */
const linkText = (text: string) => oneLine(text).replace(/([\\[\]])/g, "\\$1");
const linkUrl = (url: string) =>
  url.replace(/[()\s<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);

/** A source as a list item: a link where it has a web address, its collection and document otherwise. */
function sourceLine(s: Source): string {
  if (s.withheld) return oneLine(s.title);
  const title = s.title.trim() ? s.title : s.url;
  if (/^https?:/i.test(s.url)) return `[${linkText(title)}](${linkUrl(s.url)})`;
  return `${linkText(title)} (${[s.collection, s.doc_id].filter(Boolean).join(" · ") || s.url})`;
}

/** The quotes that back the answer's claims citing a source, as a block quote under its item. */
function quoteLines(s: Source): string {
  const quotes = (s.evidence ?? []).filter((e) => e.verdict !== "contradicted").slice(0, QUOTES_PER_SOURCE);
  return quotes.map((e) => `\n   > “${oneLine(e.quote)}”`).join("");
}

/**
 * A completed run as one message: the answer's Markdown with its [S1] markers, then the sources
 * as a numbered list of links in marker order, each with the quotes that back it, so a client
 * that shows only `content` shows them (docs/decisions/0175-citations-that-survive-the-trip.md).
 */
export function answerContent(env: Envelope): string {
  const answer = env.answer ?? "";
  if (!env.sources.length) return answer;
  const items = env.sources.map((s, i) => `${i + 1}. ${sourceLine(s)}${quoteLines(s)}`);
  return `${answer}\n\n**Sources**\n\n${items.join("\n")}`;
}

/**
 * Where the claim a marker at `at` cites begins: after the sentence end, line break or marker
 * before it. A marker written after its sentence's full stop (the extractive writer's "… helix.
 * [S1]") cites that sentence: the space before the marker is cut first, so that stop is no end.
 */
function claimStart(text: string, at: number): number {
  let end = at;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  let start = 0;
  for (const m of text.slice(0, end).matchAll(/[.!?。](?=\s)|\n|[\]】]/g)) start = m.index + m[0].length;
  while (start < end && /\s/.test(text[start]!)) start++;
  return start;
}

/**
 * One `url_citation` per source a marker group names: the span from the start of the claim
 * that cites it to the end of its marker, in UTF-16 code units (what `content.slice` takes in
 * the JavaScript clients). Sources without a web address are cited by the list alone.
 */
export function urlCitations(env: Envelope): UrlCitation[] {
  const answer = env.answer ?? "";
  const byId = new Map(env.sources.map((s) => [s.id, s]));
  const out: UrlCitation[] = [];
  let last = { start: 0, end: 0 };
  for (const m of answer.matchAll(MARKER_GROUP)) {
    const end = m.index + m[0].length;
    // Groups side by side ("[S1][S2]", "[S1] [S2]") cite the same claim.
    const start =
      last.end > 0 && answer.slice(last.end, m.index).trim() === "" ? last.start : claimStart(answer, m.index);
    last = { start, end };
    for (const n of numbersIn(m[0])) {
      const s = byId.get(`S${n}`);
      if (!s || s.withheld || !/^https?:/i.test(s.url)) continue;
      out.push({
        type: "url_citation",
        url_citation: { url: s.url, title: s.title, start_index: start, end_index: end },
      });
    }
  }
  return out;
}

/** OpenAI's `usage` from the run's token estimates. */
export function chatUsage(env: Envelope) {
  const { tokens_in: prompt, tokens_out: completion } = env.usage;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
