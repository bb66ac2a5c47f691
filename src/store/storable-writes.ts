import { storable, storableText } from "../contract/storable-text.ts";
import type { Store } from "./types.ts";

/**
 * The writes that take text from outside the service (documents, fetched pages and search
 * results in a run's sources and timeline, a model's answer, upstream error messages, file
 * names), stored cleaned on every backend the same way: NUL dropped, unpaired surrogates made
 * U+FFFD (docs/decisions/0100-text-a-database-cannot-hold.md). Threat: text from a page or a
 * document failing a run's record or a whole import on PostgreSQL, and reading back otherwise
 * than it was sent on SQLite. Names and credentials are not cleaned here (a cleaned name
 * could be another's): callers' text is refused at the door instead.
 */
export function withStorableWrites<S extends Store>(store: S): S {
  const { runs, corpus, uploads, runStream } = store;
  return {
    ...store,
    runs: {
      ...runs,
      accept: (run, allowances, claim) => runs.accept(storable(run), allowances, claim),
      finish: (id, outcome, events) => runs.finish(id, storable(outcome), storable(events)),
    },
    corpus: { ...corpus, put: (id, docs) => corpus.put(id, storable(docs)) },
    uploads: {
      ...uploads,
      enqueue: (id, owner, files, fits, audit) => uploads.enqueue(id, owner, storable(files), fits, audit),
      fail: (id, error) => uploads.fail(id, storableText(error)),
    },
    runStream: runStream && { ...runStream, append: (id, events) => runStream.append(id, storable(events)) },
  };
}
