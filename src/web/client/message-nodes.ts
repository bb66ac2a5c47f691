import { h } from "./dom.ts";

/**
 * A server's message as the page shows it: its `code spans` (commands and variables a
 * message names as the fix) set as code, everything else as text. Nothing else of
 * Markdown is read: a message quoting an upstream's words never turns into a link.
 */
export function messageNodes(text: string): Node[] {
  const out: Node[] = [];
  let last = 0;
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    out.push(h("code", {}, m[1]!));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

/** Several messages in one alert, one line each. */
export function messageLines(lines: string[]): Node[] {
  return lines.flatMap((line, i) => (i ? [h("br"), ...messageNodes(line)] : messageNodes(line)));
}
