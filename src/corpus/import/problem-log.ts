import type { ImportProblem } from "./import-types.ts";

/** Messages shown per file; a file of garbage lines is then one screen, not a flood. */
const PER_FILE = 20;

/** Hands problems on, at most PER_FILE for one file, then one line saying how many more there were. */
export class ProblemLog {
  private readonly count = new Map<string, number>();

  constructor(private readonly onProblem?: (p: ImportProblem) => void) {}

  readonly report = (p: ImportProblem): void => {
    const n = (this.count.get(p.path) ?? 0) + 1;
    this.count.set(p.path, n);
    if (n <= PER_FILE) this.onProblem?.(p);
  };

  /** Called when a file is done: says how many of its problems were not shown. */
  endFile(path: string): void {
    const hidden = (this.count.get(path) ?? 0) - PER_FILE;
    if (hidden > 0)
      this.onProblem?.({ path, message: `${hidden} more problems in this file not shown`, skipped: false });
    this.count.delete(path);
  }
}
