/**
 * What the CLI writes for people: aligned columns on stdout, a status line on stderr, and
 * every other line through say() and warn(), all shown through shown(). `--json` output is
 * written as it is.
 */

// Threat: file names, titles, page text and upstream messages written by others reach the
// operator's terminal: ESC starts CSI and OSC sequences (OSC 52 writes the clipboard), BEL,
// CR and the C1 controls rewrite what is shown, bidi embeddings, overrides and isolates
// reorder it. \n and \t stay: answers and snippets have lines.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

const escaped = (c: string) => {
  const n = c.charCodeAt(0);
  return n <= 0xff ? `\\x${n.toString(16).padStart(2, "0")}` : `\\u${n.toString(16).padStart(4, "0")}`;
};

/** Text with its control characters shown escaped (ESC as \x1b, U+202E as \u202e). */
export function shown(text: string): string {
  return text.replace(CONTROLS, escaped);
}

/** A line or more for people on stdout, controls escaped. */
export function say(text: string): void {
  process.stdout.write(shown(text));
}

/** A line or more for people on stderr, controls escaped. */
export function warn(text: string): void {
  process.stderr.write(shown(text));
}

/** Columns for people, each as wide as its longest cell. */
export function columns(cells: string[][]): string {
  // A cell is one line: its own line breaks and tabs are shown too.
  const rows = cells.map((r) => r.map((c) => shown(c).replace(/\n/g, "\\n").replace(/\t/g, "\\t")));
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** On a terminal, rewrites the one status line (cut to the terminal's width); true when it did. */
export function rewriteStatus(line: string): boolean {
  if (!process.stderr.isTTY) return false;
  process.stderr.write(`\r\x1b[2K${shown(line).slice(0, (process.stderr.columns ?? 100) - 1)}`);
  return true;
}

/** Clears the status line before other output, on a terminal. */
export function clearStatus(): void {
  if (process.stderr.isTTY) process.stderr.write("\r\x1b[2K");
}
