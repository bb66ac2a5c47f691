import { stripInline } from "./markdown-inline.ts";

/** Markdown as readable text: headings kept as lines of their own, markup gone. */
export interface MarkdownText {
  /** The first heading (ATX "# x" or setext "x\n==="), or the front matter's title. */
  title: string | null;
  text: string;
}

/** The line without its trailing spaces and tabs, read once from the end (a pattern would rescan a long run). */
function trimBlanksEnd(line: string): string {
  let e = line.length;
  while (e > 0 && (line[e - 1] === " " || line[e - 1] === "\t")) e--;
  return line.slice(0, e);
}

/** An ATX heading's text ("## Title ##" → "Title"), or null; its closing hashes are counted from the end. */
function atxHeading(raw: string): string | null {
  const open = /^\s{0,3}#{1,6}\s+/.exec(raw);
  if (!open) return null;
  let text = raw.slice(open[0].length).trimEnd();
  let e = text.length;
  while (e > 0 && text[e - 1] === "#") e--;
  text = text.slice(0, e).trimEnd();
  return text;
}

/** A table's rule (`|---|:--:|`), told on the trimmed line so no two space runs meet in the pattern. */
const TABLE_RULE = /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$/;

/** Cells of a table row, joined by two spaces; the spaces around each pipe go. */
function cells(line: string): string {
  const parts = line.split("|");
  return parts
    .map((p, i) => {
      let x = i > 0 ? p.trimStart() : p;
      if (i < parts.length - 1) x = x.trimEnd();
      return x;
    })
    .join("  ");
}

/**
 * Strips Markdown to the text a reader sees: front matter, fences, list and quote markers,
 * link targets, emphasis, tables' pipes and rules go; headings stay as lines so passages
 * break at them; code inside fences is kept as text (it is often what a note is about).
 */
export function markdownText(md: string): MarkdownText {
  let lines = md.replace(/\r\n?/g, "\n").split("\n");
  let title: string | null = null;
  if (lines[0]?.trim() === "---") {
    const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
    if (end > 0) {
      const t = lines.slice(1, end).find((l) => /^title:\s*\S/.test(l));
      if (t)
        title =
          t
            .replace(/^title:\s*/, "")
            .replace(/^["']|["']$/g, "")
            .trim() || null;
      lines = lines.slice(end + 1);
    }
  }
  const out: string[] = [];
  let heading: string | null = null;
  let fence: string | null = null;
  for (const raw of lines) {
    const fenceMark = /^\s*(```|~~~)/.exec(raw)?.[1];
    if (fenceMark && (fence === null || fence === fenceMark)) {
      fence = fence === null ? fenceMark : null;
      out.push("");
      continue;
    }
    if (fence !== null) {
      out.push(raw);
      continue;
    }
    const setext =
      /^\s{0,3}(=+|-+)\s*$/.test(raw) && out.length && out.at(-1)!.trim() && !/^\s*-+\s*$/.test(out.at(-1)!);
    if (setext && /=|-{2,}/.test(raw)) {
      heading ??= out.at(-1)!.trim();
      out.push("");
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(raw)) continue; // a rule
    if (/^\s{0,3}\[[^\]]+\]:\s*\S+/.test(raw)) continue; // a reference definition
    if (TABLE_RULE.test(raw.trim())) continue; // a table's rule
    const atx = atxHeading(raw);
    if (atx !== null) {
      const h = stripInline(atx).trim();
      heading ??= h || null;
      out.push("", h, "");
      continue;
    }
    let line = raw
      .replace(/^\s*(>\s?)+/, "")
      .replace(/^\s*([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?/, "")
      .replace(/^\s*\|(.*)\|\s*$/, "$1");
    if (line.includes("|")) line = cells(line);
    out.push(stripInline(line));
  }
  const text = out
    .map(trimBlanksEnd)
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title: title ?? heading, text };
}
