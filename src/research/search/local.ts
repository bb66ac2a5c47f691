import { MAX_QUERY_TERMS } from "../../corpus/search/query-cap.ts";
import type { CorpusDocHit } from "../../corpus/search/ranking.ts";
import { corpusQuery, searchCorpus, searcherOf } from "../../corpus/search/search-corpus.ts";
import type { CollectionReader, Store } from "../../store/types.ts";
import { withoutTitle } from "../../text/passages.ts";
import { collapse } from "../../util/collapse.ts";
import { SearchError } from "./search-error.ts";
import type { SearchHit, SearchOptions, SearchProvider } from "./types.ts";

/**
 * The `local` provider: the service's own collections, searched beside the web and the
 * databases. Its hits are already read: `read` hands the rank stage a document's best
 * passages from the store, so a local document is never fetched (and never meets the
 * SSRF guard, whatever URL it carries).
 */
export interface LocalProvider extends SearchProvider {
  readonly name: "local";
  readonly kind: "local";
  /** The document's passages that best match `queryText` (the question and the plan's queries), as one text. */
  read(hit: SearchHit, queryText: string, signal?: AbortSignal): Promise<string>;
}

/**
 * The collections as a source of runs. Threat: one account's private documents reaching
 * another's answers — a run only ever gets a provider kept to the collections its caller may
 * read (README "Collections for a team"), asked per run since collections and their
 * visibility change while the server runs.
 */
export interface LocalCollections {
  /** The provider of one run: only what `reader` may read; null when none of that holds a document. */
  forReader(reader: CollectionReader): Promise<LocalProvider | null>;
}

export interface LocalOptions {
  store: Store;
  /** Passages handed to the rank stage per document (default 6: twice what one source may quote). */
  passagesPerDoc?: number;
}

const SNIPPET_CHARS = 300;

/** `local:<collection>/<doc_id>`, each segment percent-encoded so the whole is one valid URI. */
export function localUrl(collection: string, docId: string): string {
  return `local:${encodeURIComponent(collection)}/${docId.split("/").map(encodeURIComponent).join("/")}`;
}

export function createLocal(o: LocalOptions): LocalCollections {
  return {
    async forReader(reader) {
      const ids = await o.store.corpus.readable(reader);
      return (await o.store.corpus.hasDocuments(ids)) ? scopedLocal(o, ids) : null;
    },
  };
}

/**
 * Words a document's passages are matched with at most: a passage's words among the query's,
 * so each costs a look-up in the passage index. The question's come first, then the plan's.
 */
const PASSAGE_WORDS = MAX_QUERY_TERMS * 2;
const passageWords = (text: string) => [...new Set(corpusQuery(text).words)].slice(0, PASSAGE_WORDS);

function scopedLocal(o: LocalOptions, collections: number[]): LocalProvider {
  const { store } = o;
  const searcher = searcherOf(store);
  const perDoc = o.passagesPerDoc ?? 6;
  const toHit = async (d: CorpusDocHit, words: string[], signal: AbortSignal): Promise<SearchHit> => {
    // The passage that matches this query best, so fusion's overlap bonus and the source's snippet see content.
    const [best] = await searcher.passages(d.id, words, 1, signal);
    return {
      url: d.url ?? localUrl(d.collection, d.docId),
      title: d.title || d.docId,
      snippet: collapse(withoutTitle(best?.text ?? "", d.title), SNIPPET_CHARS),
      provider: "local",
      type: "local",
      local: {
        collection: d.collection,
        collectionId: d.collectionId,
        owner: d.owner,
        docId: d.docId,
        documentId: d.id,
      },
    };
  };
  return {
    name: "local",
    kind: "local",
    async search(query: string, opts: SearchOptions): Promise<SearchHit[]> {
      if (opts.signal.aborted) throw new SearchError("local", "aborted", "the run was aborted");
      try {
        const docs = await searchCorpus(store, query, { collections, limit: opts.limit, signal: opts.signal });
        const words = passageWords(query);
        return await Promise.all(docs.map((d) => toHit(d, words, opts.signal)));
      } catch (e) {
        if (opts.signal.aborted) throw new SearchError("local", "aborted", "the run was aborted");
        const why = collapse(e instanceof Error ? e.message : String(e), 200);
        throw new SearchError("local", "unavailable", `the collections could not be searched: ${why}`, undefined, why);
      }
    },
    async read(hit: SearchHit, queryText: string, signal?: AbortSignal): Promise<string> {
      if (!hit.local) return "";
      const passages = await searcher.passages(hit.local.documentId, passageWords(queryText), perDoc, signal);
      return passages.map((p) => p.text).join("\n\n");
    },
  };
}
