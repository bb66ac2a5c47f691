import type { DocumentItem } from "../../../contract/collections.ts";
import type { UploadedFile } from "../../../contract/uploads.ts";
import { h } from "../dom.ts";
import { type SendResult, sendFile } from "./send-file.ts";

/** Files sent at once: enough to keep the line busy, few enough that each bar moves. */
const PARALLEL = 2;

type RowStatus = "waiting" | "uploading" | DocumentItem["status"] | "removed";

const LABEL: Record<RowStatus, string> = {
  waiting: "Waiting",
  uploading: "Uploading",
  queued: "Queued for indexing",
  indexing: "Indexing",
  ready: "Ready",
  failed: "Failed",
  removed: "Removed",
};

/** A JSONL file's records become documents of their own ids: the file's name is none of them. */
const isJsonl = (name: string) => /\.jsonl(\.gz)?$/i.test(name);

/** One file's line: its name, a bar, and what is happening to it. */
class UploadRow {
  readonly el: HTMLLIElement;
  readonly bar = h("progress", { max: 100, value: 0 });
  readonly state = h("span", { class: "state" });
  docId: string | null = null;
  status: RowStatus = "waiting";

  constructor(readonly file: File) {
    this.bar.setAttribute("aria-label", file.name);
    this.el = h("li", { class: "upload" }, h("span", { class: "name" }, file.name), this.bar, this.state);
    this.set("waiting");
  }

  /** Bytes sent fill the bar; indexing shows it moving without a value; ready fills it. */
  set(status: RowStatus, detail?: string): void {
    this.status = status;
    this.el.dataset.status = status;
    if (status === "queued" || status === "indexing") this.bar.removeAttribute("value");
    if (status === "ready" || status === "failed" || status === "removed") this.bar.value = 100;
    this.state.textContent = detail ? `${LABEL[status]}: ${detail}` : LABEL[status];
  }

  sent(loaded: number, total: number): void {
    const pct = total ? Math.floor((100 * loaded) / total) : 100;
    this.bar.value = pct;
    this.state.textContent = `${LABEL.uploading} ${pct} %`;
  }

  /** Accepted, and ready or failed in the collection: the documents' table says the rest. */
  get settled(): boolean {
    return this.docId !== null && (this.status === "ready" || this.status === "failed");
  }

  get pending(): boolean {
    return this.docId !== null && (this.status === "queued" || this.status === "indexing");
  }
}

/** Why the server refused a file, from its {errors: [{code, message}]} body. */
function refusal(r: SendResult): string {
  const e = (r.body as { errors?: { code?: string; message?: string }[] } | null)?.errors?.[0];
  return e?.message ? `${e.message} (${e.code ?? r.status})` : `the server answered HTTP ${r.status}`;
}

export interface UploaderOptions {
  /** Where files go: POST here. */
  url: string;
  /** The documents of the pages shown, as the server lists them now (statuses included). */
  listDocuments(): Promise<DocumentItem[]>;
  /** One document wherever its page is (a file's name beyond the pages shown), or null. */
  findDocument(docId: string): Promise<DocumentItem | null>;
  /** Called with each fresh list, to redraw the page's table. */
  onDocuments(docs: DocumentItem[]): void;
  /** Waits between two reads of the statuses. */
  pause(): Promise<void>;
}

/**
 * Uploads files one request each (a refused file fails alone, with its reason), a bar per
 * file: bytes sent, then the document's indexing status read from the collection's list until
 * it is ready or failed (docs/decisions/0088-uploads-from-the-browser.md).
 */
export function uploader(o: UploaderOptions): { list: HTMLElement; add(files: Iterable<File>): void } {
  const list = h("ul", { class: "uploads", "aria-label": "Uploads" });
  const waiting: UploadRow[] = [];
  const rows: UploadRow[] = [];
  let sending = 0;
  let watching = false;

  // Set by each sent file: the list is read at least once after it (the table then shows it).
  let again = false;
  const watch = async () => {
    again = true;
    if (watching) return;
    watching = true;
    try {
      // Until every accepted file settles, or the page is left (the list is no longer shown).
      while ((again || rows.some((r) => r.pending)) && list.isConnected) {
        again = false;
        await o.pause();
        const docs = await o.listDocuments().catch(() => null);
        if (!docs || !list.isConnected) continue;
        const byId = new Map(docs.map((d) => [d.doc_id, d]));
        for (const r of rows.filter((x) => x.pending)) {
          const d = byId.get(r.docId!) ?? (await o.findDocument(r.docId!).catch(() => undefined));
          if (d === undefined) continue;
          // Gone from the list: a JSONL file imported (its records are listed by their own
          // ids), or a file removed while it waited.
          if (!d)
            r.set(
              isJsonl(r.file.name) ? "ready" : "removed",
              isJsonl(r.file.name) ? "its records are listed below" : undefined,
            );
          else if (d.status !== r.status) r.set(d.status, d.error);
        }
        o.onDocuments(docs);
        // A file settled and listed in the table is that row now: two lines for one file read
        // as two documents. Those beyond the pages shown, and files refused, keep their line.
        for (const r of rows.filter((x) => x.settled && byId.has(x.docId!))) {
          r.el.remove();
          rows.splice(rows.indexOf(r), 1);
        }
      }
    } finally {
      watching = false;
    }
  };

  const send = async (row: UploadRow) => {
    row.set("uploading");
    try {
      const r = await sendFile(o.url, row.file, (a, b) => row.sent(a, b));
      const doc = (r.body as { documents?: UploadedFile[] } | null)?.documents?.[0];
      if (r.status !== 202 || !doc) return row.set("failed", refusal(r));
      row.docId = doc.doc_id;
      row.set(doc.status);
    } catch (e) {
      row.set("failed", (e as Error).message);
    }
  };

  // Leaving the app mid-upload (a reload, closing the tab) would cut the files short: ask first.
  const stay = (e: BeforeUnloadEvent) => e.preventDefault();
  const next = () => {
    while (sending < PARALLEL && waiting.length) {
      const row = waiting.shift()!;
      if (sending++ === 0) window.addEventListener("beforeunload", stay);
      void send(row).finally(() => {
        if (--sending === 0 && !waiting.length) window.removeEventListener("beforeunload", stay);
        next();
        void watch();
      });
    }
  };

  return {
    list,
    add(files) {
      for (const f of files) {
        const row = new UploadRow(f);
        rows.push(row);
        waiting.push(row);
        list.append(row.el);
      }
      next();
    },
  };
}
