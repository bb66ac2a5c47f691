// Scripts written without spaces between words count a character as a word, so their
// passages stay as short as everyone else's (and within the writer's token budget).
const DENSE = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}";
const DENSE_CHARS = new RegExp(`[${DENSE}]`, "gu");
const UNITS = new RegExp(`[${DENSE}]|[^\\s${DENSE}]+`, "gu");
const words = (s: string) => s.split(/\s+/).filter(Boolean).length + (s.match(DENSE_CHARS)?.length ?? 0);

/**
 * Splits text into passages of about `target` words (80–150 in practice) on paragraph,
 * then sentence boundaries; a run-on piece without sentence ends (PDF text, lists) is cut
 * into windows of `max` words so no passage outgrows the budget.
 */
export function splitPassages(text: string, target = 110, max = 170): string[] {
  const paras = text
    .split(/\n+/)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  const out: string[] = [];
  let cur: string[] = [];
  let n = 0;
  const push = () => {
    // Paragraphs keep their line break: a heading has no full stop and would run into the next sentence.
    if (cur.length) out.push(cur.join("\n"));
    cur = [];
    n = 0;
  };
  for (const p of paras) {
    const pieces = words(p) > max ? splitSentences(p).flatMap((s) => (words(s) > max ? windows(s, target) : [s])) : [p];
    for (const piece of pieces) {
      const k = words(piece);
      if (n && n + k > max) push();
      cur.push(piece);
      n += k;
      if (n >= target) push();
    }
  }
  push();
  return out.filter((p) => p.length >= 40);
}

/** Cuts a run-on piece every `size` words (a dense-script character is a word), keeping its own spacing. */
function windows(s: string, size: number): string[] {
  const units = [...s.matchAll(UNITS)];
  const out: string[] = [];
  for (let i = 0; i < units.length; i += size) {
    const last = units[Math.min(i + size, units.length) - 1]!;
    out.push(s.slice(units[i]!.index, last.index + last[0].length));
  }
  return out;
}

/** Characters at a sentence's end that tell an abbreviation or an initial: more than the longest with its space. */
const TAIL = 16;
const ABBREV =
  /(?:^|[\s(])(?:e\.g|i\.e|et al|etc|Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr|Inc|Ltd|Co|Fig|Figs|No|Nr|vs|approx|cf|ca|Vol|pp|Eq|z\.B|d\.h|bzw|usw)\.$/i;

/**
 * Sentence split: after . ! ? (and closing quotes) followed by white space, and after
 * 。！？ directly. Abbreviations ("e.g.", "Dr."), initials, a lower-case continuation and
 * very short pieces stay with their neighbour. A line break always ends a sentence (a
 * heading or a list item has no full stop of its own).
 */
export function splitSentences(text: string): string[] {
  return text.split(/\n+/).flatMap(lineSentences);
}

function lineSentences(line: string): string[] {
  const parts = line
    .replace(/\s+/g, " ")
    .trim()
    .split(/(?<=[.!?]["'”’)\]]*) (?=\S)|(?<=[。！？])/u)
    .filter(Boolean);
  const out: string[] = [];
  // The sentence being glued, in pieces, with its length and its last TAIL characters: only its
  // end is read, and it is joined once. Reading the whole of it at every piece (a pattern ending
  // in `$`, a string grown by `+`) made "a. a. a. …" quadratic: an import held for an hour.
  let pieces: string[] = [];
  let length = 0;
  let end = "";
  const close = () => {
    if (pieces.length) out.push(pieces.join(""));
  };
  for (const s of parts) {
    const wide = /[。！？]$/.test(end);
    const glue =
      pieces.length > 0 &&
      (ABBREV.test(end) || /(?:^|\s)\p{Lu}\.$/u.test(end) || /^\p{Ll}/u.test(s) || length < (wide ? 6 : 20));
    if (!glue) {
      close();
      pieces = [];
      length = 0;
      end = "";
    }
    const piece = glue && !wide ? ` ${s}` : s;
    pieces.push(piece);
    length += piece.length;
    end = (end + piece.slice(-TAIL)).slice(-TAIL);
  }
  close();
  return out;
}

/**
 * Text without the title it starts with. The run puts a source's title before its text so
 * ranking sees it, and a Markdown document's heading is its title: quoted or shown as a
 * snippet, the title (which has no full stop) would run into the first sentence.
 */
export function withoutTitle(text: string, title: string): string {
  const t = title.trim();
  return t && /\s/.test(text[t.length] ?? "") && text.startsWith(t) ? text.slice(t.length + 1).trimStart() : text;
}
