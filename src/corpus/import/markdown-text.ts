/** Markdown as readable text: headings kept as lines of their own, markup gone. */
export interface MarkdownText {
  /** The first heading (ATX "# x" or setext "x\n==="), or the front matter's title. */
  title: string | null;
  text: string;
}

const inline = (s: string) =>
  s
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1") // images: their alt text
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1") // links: their text
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1") // reference links
    .replace(/<\/?[A-Za-z][^>]*>/g, "") // inline HTML tags
    .replace(/(`+)(.+?)\1/g, "$2")
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, "$2")
    .replace(/(^|[^\w*])[*_](?=\S)(.+?)(?<=\S)[*_](?=[^\w*]|$)/g, "$1$2")
    .replace(/~~(.+?)~~/g, "$1");

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
    if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(raw)) continue; // a table's rule
    const atx = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
    if (atx) {
      const h = inline(atx[1]!).trim();
      heading ??= h || null;
      out.push("", h, "");
      continue;
    }
    let line = raw
      .replace(/^\s*(>\s?)+/, "")
      .replace(/^\s*([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?/, "")
      .replace(/^\s*\|(.*)\|\s*$/, "$1");
    if (line.includes("|")) line = line.replace(/\s*\|\s*/g, "  ");
    out.push(inline(line));
  }
  const text = out
    .join("\n")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title: title ?? heading, text };
}
