// Markdown's inline markup stripped in passes that each read the line once. Threat: an uploaded
// note of unclosed openers ("[a[a[a…", "**a **a…") made each backtracking pattern rescan the rest
// of the line from every opener, holding the one import worker for minutes (the rest queued).
// Every closer is looked up through `nextAt`, whose answers are remembered while the positions
// asked about only grow, so a pass costs one walk over the line however many openers fail.

/** Whether the character at `p` is one `\s` matches (false past either end). */
function isSpace(s: string, p: number): boolean {
  const c = s.charCodeAt(p);
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return /\s/.test(s[p]!);
}

/** Whether the character at `p` is none `[\w*]` matches, or past the end: the outer side of single emphasis. */
function outerSide(s: string, p: number): boolean {
  if (p >= s.length) return true;
  const c = s.charCodeAt(p);
  const word = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  return !word && c !== 42;
}

/** The first position ≥ `from` where `ok` holds (-1: none); `from` must never decrease between calls. */
function nextAt(length: number, ok: (p: number) => boolean): (from: number) => number {
  let at = -2;
  return (from) => {
    if (at === -1 || at >= from) return at;
    let p = from;
    while (p < length && !ok(p)) p++;
    at = p < length ? p : -1;
    return at;
  };
}

const nextOf = (s: string, needle: string, ok: (p: number) => boolean = () => true) =>
  nextAt(s.length, (p) => s.startsWith(needle, p) && ok(p));

/**
 * One pass: at each position holding one of the characters `starts`, `at(i)` answers the match
 * starting there (where it ends, what replaces it) or null; a match's end is where the next is
 * looked for, as `String.replace` with a global pattern does.
 */
function pass(
  s: string,
  starts: string,
  at: (i: number, last: number) => { end: number; text: string } | null,
): string {
  const a = starts.charCodeAt(0);
  const b = starts.charCodeAt(starts.length - 1);
  let out = "";
  let last = 0;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    const m = c === a || c === b ? at(i, last) : null;
    if (!m) {
      i++;
      continue;
    }
    out += s.slice(last, i) + m.text;
    last = i = m.end;
  }
  return out + s.slice(last);
}

/** `open` text `]` `mid` … `end`: the text kept (images' alt text, links' and reference links' text). */
function bracketed(s: string, open: string, minText: number, mid: string, end: string): string {
  const close = nextOf(s, "]");
  const tail = nextOf(s, end);
  return pass(s, open[0]!, (i) => {
    if (!s.startsWith(open, i)) return null;
    const j = close(i + open.length);
    if (j < i + open.length + minText || !s.startsWith(mid, j + 1)) return null;
    const k = tail(j + 2);
    return k === -1 ? null : { end: k + 1, text: s.slice(i + open.length, j) };
  });
}

/** Inline HTML tags (`<b>`, `</span …>`) go, their content stays. */
function tags(s: string): string {
  const gt = nextOf(s, ">");
  return pass(s, "<", (i) => {
    const name = s[i + 1] === "/" ? i + 2 : i + 1;
    if (!/[A-Za-z]/.test(s[name] ?? "")) return null;
    const k = gt(name + 1);
    return k === -1 ? null : { end: k + 1, text: "" };
  });
}

/** Code spans: a run of backticks closed by the next run of the same length; an unclosed run stays. */
function codeSpans(s: string): string {
  const runs = new Map<number, number[]>();
  for (let i = 0; i < s.length; ) {
    if (s[i] !== "`") {
      i++;
      continue;
    }
    let e = i;
    while (s[e] === "`") e++;
    const list = runs.get(e - i) ?? [];
    list.push(i);
    runs.set(e - i, list);
    i = e;
  }
  if (!runs.size) return s;
  // Per length, the runs not yet passed: each list is walked once.
  const seen = new Map<number, number>();
  return pass(s, "`", (i, last) => {
    if (i > last && s[i - 1] === "`") return null;
    let e = i;
    while (s[e] === "`") e++;
    const list = runs.get(e - i)!;
    let n = seen.get(e - i) ?? 0;
    while (n < list.length && list[n]! <= i) n++;
    seen.set(e - i, n);
    const close = list[n];
    if (close === undefined) return null;
    seen.set(e - i, n + 1);
    return { end: close + (e - i), text: s.slice(e, close) };
  });
}

/** `**strong**` and `__strong__`: the text between, which neither begins nor ends with a space. */
function strong(s: string): string {
  const closers = new Map(["**", "__"].map((d) => [d, nextOf(s, d, (p) => p > 0 && !isSpace(s, p - 1))] as const));
  return pass(s, "*_", (i) => {
    const d = s.startsWith("**", i) ? "**" : s.startsWith("__", i) ? "__" : null;
    if (!d || i + 2 >= s.length || isSpace(s, i + 2)) return null;
    const p = closers.get(d)!(i + 3);
    return p === -1 ? null : { end: p + 2, text: s.slice(i + 2, p) };
  });
}

/** `*em*` and `_em_`, not inside a word (snake_case_names stay). */
function emphasis(s: string): string {
  const mark = (p: number) => s[p] === "*" || s[p] === "_";
  const closer = nextAt(s.length, (p) => mark(p) && p > 0 && !isSpace(s, p - 1) && outerSide(s, p + 1));
  return pass(s, "*_", (i, last) => {
    if (i + 1 >= s.length || isSpace(s, i + 1)) return null;
    // The character before the opener belongs to this match: not to the previous one.
    if (i > 0 && (i - 1 < last || !outerSide(s, i - 1))) return null;
    const p = closer(i + 2);
    return p === -1 ? null : { end: p + 1, text: s.slice(i + 1, p) };
  });
}

/** `~~struck~~`: the text between. */
function struck(s: string): string {
  const close = nextOf(s, "~~");
  return pass(s, "~", (i) => {
    if (!s.startsWith("~~", i)) return null;
    const p = close(i + 3);
    return p === -1 ? null : { end: p + 2, text: s.slice(i + 2, p) };
  });
}

/** One line's inline markup gone: images and links to their text, tags, code, emphasis, strikes. */
export const stripInline = (line: string): string =>
  struck(
    emphasis(
      strong(
        codeSpans(tags(bracketed(bracketed(bracketed(line, "![", 0, "(", ")"), "[", 1, "(", ")"), "[", 1, "[", "]"))),
      ),
    ),
  );
