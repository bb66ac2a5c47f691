import type { CorpusDocumentInput, CorpusPutOutcome, CorpusTable } from "../../store/types.ts";
import { splitPassages } from "../../text/passages.ts";
import { capTitle } from "../../text/title.ts";
import type { ImportProblem, ReadDocument } from "./import-types.ts";

// One store.corpus.put is one transaction: a few hundred documents amortise its cost (10,000
// small files import in seconds) while a Ctrl-C still waits for at most one batch.
const BATCH_DOCS = 400;
const BATCH_CHARS = 8_000_000;

interface Pending {
  input: CorpusDocumentInput;
  root: number;
  /** A later record with the same doc_id in this import: its outcome is not counted again. */
  repeat: boolean;
}

/** Where documents are written: the store, or an upload's import worker handing them to it (src/collections/). */
export interface DocumentSink {
  corpus: Pick<CorpusTable, "put">;
}

/** Where the earlier record with an id came from, as seen from the later one. */
const origin = (earlier: ReadDocument, later: ReadDocument) =>
  earlier.line ? `line ${earlier.line}${earlier.path === later.path ? "" : ` of ${earlier.path}`}` : earlier.path;

/** Passages of a document; a text too short for splitPassages' floor is one passage, so every document is findable. */
function passagesOf(text: string): string[] {
  const ps = splitPassages(text);
  if (ps.length) return ps;
  const one = text.replace(/\s+/g, " ").trim();
  return one ? [one] : [];
}

/**
 * Collects read documents and writes them in batches. A doc_id met twice in one import (a
 * JSONL id repeated, two files with one base name) keeps the later one, with a message.
 */
export class BatchWriter {
  private pending: Pending[] = [];
  private chars = 0;
  private readonly slot = new Map<string, number>();
  private readonly seen = new Map<string, ReadDocument>();

  constructor(
    private readonly store: DocumentSink,
    private readonly collectionId: number,
    private readonly counted: (outcome: CorpusPutOutcome, root: number) => void,
    private readonly report: (p: ImportProblem) => void,
  ) {}

  async add(d: ReadDocument, root: number): Promise<void> {
    const input: CorpusDocumentInput = {
      docId: d.docId,
      // Every import path passes here (`corpus add` and uploads): no title is stored longer.
      title: capTitle(d.title) || d.docId,
      url: d.url,
      path: d.path,
      format: d.format,
      contentHash: d.contentHash,
      truncated: d.truncated,
      passages: passagesOf(d.text),
    };
    const earlier = this.seen.get(d.docId);
    this.seen.set(d.docId, { ...d, text: "" });
    if (earlier) {
      this.report({
        path: d.path,
        line: d.line,
        message: `id ${JSON.stringify(d.docId)} repeats ${origin(earlier, d)}: the later one is kept`,
        skipped: false,
      });
      const i = this.slot.get(d.docId);
      if (i !== undefined) {
        this.pending[i] = { input, root, repeat: this.pending[i]!.repeat };
        return;
      }
    }
    this.slot.set(d.docId, this.pending.length);
    this.pending.push({ input, root, repeat: earlier !== undefined });
    this.chars += d.text.length;
    if (this.pending.length >= BATCH_DOCS || this.chars >= BATCH_CHARS) await this.flush();
  }

  /** Writes what is pending in one transaction, then lets signals (Ctrl-C) and timers run. */
  async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.slot.clear();
    this.chars = 0;
    if (batch.length) {
      const outcomes = await this.store.corpus.put(
        this.collectionId,
        batch.map((p) => p.input),
      );
      outcomes.forEach((o, i) => {
        if (!batch[i]!.repeat) this.counted(o, batch[i]!.root);
      });
    }
    await new Promise((r) => setImmediate(r));
  }
}
