/** A line-end hyphen the wrapper set: a word split by a typesetter, or a compound broken at its own hyphen. */
export interface Hyphenation {
  kind: "split" | "compound";
  /** The word's two halves as set: "kilo" and "gram"; "well" and "known". */
  head: string;
  tail: string;
}

const core = (w: string) => /[\p{L}\p{N}][\p{L}\p{N}-]*[\p{L}\p{N}]/u.exec(w)?.[0] ?? "";

/**
 * Text hard-wrapped at `width` columns as an editor or a PDF sets it. With `hyphenate`, a word
 * of 8 letters or more that does not fit is split with a hyphen (3 letters at least on either
 * side), and a compound that does not fit breaks after its own hyphen.
 */
export function hardWrap(text: string, width: number, hyphenate: boolean): { lines: string[]; hyphens: Hyphenation[] } {
  const lines: string[] = [];
  const hyphens: Hyphenation[] = [];
  let line = "";
  for (let word of text.split(/\s+/).filter(Boolean)) {
    while (word) {
      const room = width - line.length - (line ? 1 : 0);
      if (word.length <= room) {
        line += (line ? " " : "") + word;
        word = "";
        break;
      }
      const w = core(word);
      const at = word.indexOf(w);
      const dash = hyphenate && w.includes("-") ? word.indexOf("-", at) : -1;
      if (dash > 0 && dash + 1 <= room && /^\p{L}/u.test(word.slice(dash + 1))) {
        hyphens.push({ kind: "compound", head: word.slice(at, dash), tail: core(word.slice(dash + 1)).split("-")[0]! });
        line += (line ? " " : "") + word.slice(0, dash + 1);
        word = word.slice(dash + 1);
      } else if (hyphenate && /^\p{L}{8,}$/u.test(w) && room - 1 - at >= 3) {
        const k = Math.min(room - 1, at + w.length - 3);
        hyphens.push({ kind: "split", head: word.slice(at, k), tail: w.slice(k - at) });
        line += `${line ? " " : ""}${word.slice(0, k)}-`;
        word = word.slice(k);
      } else if (!line) {
        // Longer than a whole line and not to be split: a line of its own.
        line = word;
        word = "";
      }
      lines.push(line);
      line = "";
    }
  }
  if (line) lines.push(line);
  return { lines, hyphens };
}

/** Whether the joined text reads each hyphenation right: a split word whole, a compound with its hyphen. */
export function hyphensRead(
  joined: string,
  hyphens: Hyphenation[],
): { split: [number, number]; compound: [number, number] } {
  const out = { split: [0, 0] as [number, number], compound: [0, 0] as [number, number] };
  for (const h of hyphens) {
    const right = h.kind === "split" ? h.head + h.tail : `${h.head}-${h.tail}`;
    const wrong = h.kind === "split" ? `${h.head}-${h.tail}` : h.head + h.tail;
    const ok = joined.includes(right) && !joined.includes(wrong);
    out[h.kind][0] += ok ? 1 : 0;
    out[h.kind][1]++;
  }
  return out;
}
