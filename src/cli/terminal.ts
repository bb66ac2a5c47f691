/** What the CLI writes for people: aligned columns on stdout, a status line on stderr. */

/** Columns for people, each as wide as its longest cell. */
export function columns(rows: string[][]): string {
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
  process.stderr.write(`\r\x1b[2K${line.slice(0, (process.stderr.columns ?? 100) - 1)}`);
  return true;
}

/** Clears the status line before other output, on a terminal. */
export function clearStatus(): void {
  if (process.stderr.isTTY) process.stderr.write("\r\x1b[2K");
}
