/** What a file holds, told by its name's ending (case-insensitive). */
export type FileFormat = "pdf" | "html" | "markdown" | "text" | "jsonl" | "jsonl.gz";

const ENDINGS: [string, FileFormat][] = [
  [".jsonl.gz", "jsonl.gz"],
  [".jsonl", "jsonl"],
  [".pdf", "pdf"],
  [".html", "html"],
  [".htm", "html"],
  [".md", "markdown"],
  [".markdown", "markdown"],
  [".txt", "text"],
];

/** The format of `file` by extension, or null for one we do not import. */
export function formatOf(file: string): FileFormat | null {
  const lower = file.toLowerCase();
  return ENDINGS.find(([end]) => lower.endsWith(end))?.[1] ?? null;
}

export const KNOWN_ENDINGS = ENDINGS.map(([e]) => e).join(", ");
