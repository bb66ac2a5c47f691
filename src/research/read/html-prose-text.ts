/**
 * How much running prose an extracted text holds: the visible characters of its lines
 * long enough to be sentences. Menus, tag clouds, dates and buttons come out as short
 * lines, so two candidate texts compare by what a reader would read. A CJK character
 * carries about a word, so it counts as three.
 */
export function textProse(text: string): number {
  let total = 0;
  for (const line of text.split("\n")) {
    let n = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 32 || (c >= 9 && c <= 13) || c === 160) continue;
      n += c >= 0x2e80 && c <= 0x9fff ? 3 : 1;
    }
    if (n >= MIN_LINE) total += n;
  }
  return total;
}

const MIN_LINE = 60;
