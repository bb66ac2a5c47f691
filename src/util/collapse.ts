// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are exactly what is stripped
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Plain text to one line, cut at a word boundary to at most `max` characters (0 = no cap). */
export function collapse(s: unknown, max = 0): string {
  if (typeof s !== "string") return "";
  const t = s.replace(CONTROL, "").replace(/\s+/g, " ").trim();
  if (max <= 0 || t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const atWord = cut.replace(/\s+\S*$/, "");
  return (atWord.length > max / 2 ? atWord : cut) + "…";
}
