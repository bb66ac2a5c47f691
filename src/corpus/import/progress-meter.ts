import type { ImportProgress } from "./import-types.ts";

const EVERY_MS = 250;

/**
 * Progress of an import, handed on at most every 250 ms. Time left is estimated from the
 * share done: files done out of all files, plus the bytes read of the JSONL file being read
 * (one big JSONL file is then estimated by its bytes, a folder by its file count).
 */
export class ProgressMeter {
  documents = 0;
  files = 0;
  current = "";
  /** Share of the current file read (JSONL only), 0–1. */
  within = 0;
  private readonly start: number;
  private last = 0;

  constructor(
    private readonly filesTotal: number,
    private readonly onProgress?: (p: ImportProgress) => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.start = now();
  }

  tick(force = false): void {
    if (!this.onProgress) return;
    const now = this.now();
    if (!force && now - this.last < EVERY_MS) return;
    this.last = now;
    const seconds = (now - this.start) / 1000;
    const share = this.filesTotal ? Math.min(1, (this.files + this.within) / this.filesTotal) : 1;
    this.onProgress({
      documents: this.documents,
      files: this.files,
      filesTotal: this.filesTotal,
      rate: seconds > 0 ? this.documents / seconds : 0,
      secondsLeft: share >= 1 ? 0 : share > 0.005 && seconds > 0 ? (seconds * (1 - share)) / share : null,
      current: this.current,
    });
  }
}
