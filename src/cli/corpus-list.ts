import type { CollectionSummary, CorpusDocumentRow } from "../store/types.ts";
import { operatorCollection } from "./collection-args.ts";
import type { CommandInput } from "./command.ts";
import { EXIT } from "./command.ts";
import { columns } from "./terminal.ts";
import { withStore } from "./with-store.ts";

const num = (n: number) => n.toLocaleString("en");
const day = (t: string | null) => (t ? t.slice(0, 10) : "-");

const collectionJson = (c: CollectionSummary) => ({
  name: c.name,
  documents: c.documents,
  passages: c.passages,
  chars: c.chars,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

const documentJson = (d: CorpusDocumentRow) => ({
  doc_id: d.docId,
  title: d.title,
  url: d.url,
  path: d.path,
  format: d.format,
  chars: d.chars,
  truncated: d.truncated,
  added_at: d.addedAt,
});

const short = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** `corpus list [--collection NAME] [--json]`: the collections, or one collection's documents. */
export const corpusList = ({ cfg, options }: CommandInput) =>
  withStore(cfg, async (store) => {
    const all = await store.corpus.collections("all");
    const name = options.collection;
    if (typeof name !== "string") {
      if (options.json) console.log(JSON.stringify({ collections: all.map(collectionJson) }));
      else if (!all.length) process.stderr.write("no collections yet (research-query corpus add PATH...)\n");
      else
        console.log(
          columns([
            ["NAME", "DOCUMENTS", "PASSAGES", "CHARS", "UPDATED"],
            ...all.map((c) => [c.name, num(c.documents), num(c.passages), num(c.chars), day(c.updatedAt)]),
          ]),
        );
      return EXIT.ok;
    }
    const one = await operatorCollection(store, name, typeof options.owner === "string" ? options.owner : undefined);
    if (!one) {
      process.stderr.write(`no collection named ${name}\n`);
      return EXIT.failure;
    }
    const docs = await store.corpus.documents(one.id);
    if (options.json)
      console.log(JSON.stringify({ collection: collectionJson(one), documents: docs.map(documentJson) }));
    else
      console.log(
        columns([
          ["DOC_ID", "TITLE", "FORMAT", "CHARS", "TRUNCATED"],
          ...docs.map((d) => [d.docId, short(d.title, 60), d.format, num(d.chars), d.truncated ? "yes" : "no"]),
        ]),
      );
    return EXIT.ok;
  });
