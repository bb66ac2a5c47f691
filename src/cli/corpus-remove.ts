import { exactCollection, ownerOption } from "./collection-args.ts";
import type { CommandInput } from "./command.ts";
import { EXIT } from "./command.ts";
import { withStore } from "./with-store.ts";

const docs = (n: number) => `${n} document${n === 1 ? "" : "s"}`;

/**
 * `corpus remove NAME [DOC_ID...] [--owner EMAIL | --shared] [--json]`: the whole collection, or
 * only the documents named; where several collections have that name, the flags say which.
 * A collection or document that is not there is named on stderr and the exit is 1 (the others
 * named are still removed).
 */
export const corpusRemove = (input: CommandInput) =>
  withStore(input.cfg, async (store) => {
    const options = input.options;
    const [name, ...ids] = input.args as [string, ...string[]];
    const out = (r: object, text: string) => console.log(options.json ? JSON.stringify(r) : text);
    const owner = ownerOption(input);
    const c = await exactCollection(store, name, owner, options.shared === true);
    if (!c) {
      const whose = owner ? ` of ${owner}` : options.shared ? " with no owner" : "";
      process.stderr.write(`no collection named ${name}${whose}\n`);
      return EXIT.failure;
    }
    if (!ids.length) {
      const n = (await store.corpus.removeCollection(c.id)) ?? 0;
      out({ collection: name, removed: n, missing: [] }, `removed collection ${name} (${docs(n)})`);
      return EXIT.ok;
    }
    const known = new Set((await store.corpus.documents(c.id)).map((d) => d.docId));
    const wanted = [...new Set(ids)];
    const missing = wanted.filter((id) => !known.has(id));
    const removed = await store.corpus.removeDocuments(
      c.id,
      wanted.filter((id) => known.has(id)),
    );
    out({ collection: name, removed, missing }, `removed ${docs(removed)} from ${name}`);
    if (!missing.length) return EXIT.ok;
    process.stderr.write(`not in ${name}: ${missing.join(", ")}\n`);
    return EXIT.failure;
  });
