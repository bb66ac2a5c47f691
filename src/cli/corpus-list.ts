import type { CollectionSummary, CorpusDocumentRow } from "../store/types.ts";
import { operatorCollection, ownerOption } from "./collection-args.ts";
import type { CommandInput } from "./command.ts";
import { EXIT } from "./command.ts";
import { columns } from "./terminal.ts";
import { withStore } from "./with-store.ts";

const num = (n: number) => n.toLocaleString("en");
const day = (t: string | null) => (t ? t.slice(0, 10) : "-");

/** A collection as `--json` prints it (corpus list, share, unshare). */
export const collectionJson = (c: CollectionSummary) => ({
  name: c.name,
  owner: c.owner,
  visibility: c.visibility,
  documents: c.documents,
  passages: c.passages,
  chars: c.chars,
  bytes: c.bytes,
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

/**
 * `corpus list [--collection NAME [--owner EMAIL]] [--json]`: every collection, whoever owns it
 * and whoever reads it (the operator sees all), or one collection's documents.
 */
export const corpusList = (input: CommandInput) =>
  withStore(input.cfg, async (store) => {
    const options = input.options;
    const all = await store.corpus.collections("all");
    const name = options.collection;
    if (typeof name !== "string") {
      if (options.json) console.log(JSON.stringify({ collections: all.map(collectionJson) }));
      else if (!all.length) process.stderr.write("no collections yet (research-query corpus add PATH...)\n");
      else
        console.log(
          columns([
            ["NAME", "OWNER", "VISIBILITY", "DOCUMENTS", "PASSAGES", "CHARS", "UPDATED"],
            ...all.map((c) => [
              c.name,
              c.owner ?? "-",
              c.visibility,
              num(c.documents),
              num(c.passages),
              num(c.chars),
              day(c.updatedAt),
            ]),
          ]),
        );
      return EXIT.ok;
    }
    const owner = ownerOption(input);
    const one = await operatorCollection(store, name, owner);
    if (!one) {
      process.stderr.write(`no collection named ${name}${owner ? ` of ${owner}` : ""}\n`);
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
