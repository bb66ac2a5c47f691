import { streamLines } from "../corpus/import/jsonl-lines.ts";
import { corpusQuery, searchCorpus } from "../corpus/search/search-corpus.ts";
import type { Store } from "../store/types.ts";
import { collapse } from "../util/collapse.ts";
import { ownerIdsOf, ownerOptions } from "./collection-args.ts";
import { type CommandInput, EXIT, UsageError } from "./command.ts";
import { say } from "./terminal.ts";
import { withStore } from "./with-store.ts";

/** Results per query when --limit is not given: a screenful for people, enough for Recall@100 in a batch. */
const LIMIT = { single: 10, batch: 100 } as const;

function limitOf(input: CommandInput, batch: boolean): number {
  const v = input.options.limit;
  if (v === undefined) return batch ? LIMIT.batch : LIMIT.single;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    throw new UsageError(`--limit must be a whole number from 1 to 10000, not ${v}`);
  return n;
}

/**
 * The collections a search reads, as a run of `ask` would: the shared ones and the private ones
 * of each `--owner EMAIL`; `--collection NAME` keeps those of that name among them.
 */
async function scopeOf(store: Store, input: CommandInput): Promise<number[]> {
  const reader = { accounts: await ownerIdsOf(store, ownerOptions(input)) };
  const name = input.options.collection;
  if (typeof name !== "string") return await store.corpus.readable(reader);
  return (await store.corpus.collections(reader)).filter((c) => c.name === name).map((c) => c.id);
}

/** `corpus search QUERY|- [--collection NAME] [--owner EMAIL]... [--limit N] [--json]`. */
export const corpusSearch = (input: CommandInput) =>
  withStore(input.cfg, async (store) => {
    const query = input.args[0]!;
    const collections = await scopeOf(store, input);
    const limit = limitOf(input, query === "-");
    if (query === "-") return await batch(store, collections, limit);
    const hits = await searchCorpus(store, query, { collections, limit });
    const q = corpusQuery(query);
    const results = await Promise.all(
      hits.map(async (h) => ({
        doc_id: h.docId,
        collection: h.collection,
        title: h.title,
        ...(h.url ? { url: h.url } : {}),
        score: Number(h.score.toFixed(4)),
        snippet: collapse((await store.corpus.bestPassages(h.id, q.words, 1))[0]?.text ?? "", 200),
      })),
    );
    if (input.options.json) console.log(JSON.stringify({ results }));
    else if (!results.length) console.error("no matching documents");
    else
      for (const [i, r] of results.entries())
        say(
          `${i + 1}. ${r.score.toFixed(2)}  ${r.doc_id}  ${r.title || "(untitled)"}  [${r.collection}]\n   ${r.snippet}\n`,
        );
    return EXIT.ok;
  });

/**
 * JSONL queries `{id, text}` on stdin, one result line per query on stdout as it is answered
 * (README "Searching collections"); a line that is not such a query is reported on stderr with its number and skipped.
 */
async function batch(store: Store, collections: number[], limit: number): Promise<number> {
  let bad = 0;
  let n = 0;
  // Queries are short, but a long one is still read whole: no line limit.
  for await (const { n: at, text: line } of streamLines(Bun.stdin.stream(), Number.POSITIVE_INFINITY)) {
    n = at;
    if (!line.trim()) continue;
    const q = parse(line);
    if (!q) {
      bad++;
      console.error(`line ${n}: not a JSON object with a string "text" and an "id" — skipped`);
      continue;
    }
    const hits = await searchCorpus(store, q.text, { collections, limit });
    const results = hits.map((h) => ({ doc_id: h.docId, title: h.title, score: Number(h.score.toFixed(4)) }));
    process.stdout.write(`${JSON.stringify({ id: q.id, results })}\n`);
  }
  if (bad) console.error(`${bad} of ${n} lines skipped`);
  return EXIT.ok;
}

function parse(line: string): { id: string | number; text: string } | null {
  try {
    const v = JSON.parse(line);
    const ok =
      v &&
      typeof v === "object" &&
      typeof v.text === "string" &&
      (typeof v.id === "string" || typeof v.id === "number");
    return ok ? { id: v.id, text: v.text } : null;
  } catch {
    return null;
  }
}
