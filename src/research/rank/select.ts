import { splitPassages } from "../../text/passages.ts";
import { Bm25 } from "./bm25.ts";

/** A document the reading stage produced (page text or abstract), in search-rank order. */
export interface RankInput {
  key: string;
  title: string;
  text: string;
}

/** A chosen source: its key, its best passages in document order, and its score. */
export interface Selected {
  key: string;
  passages: string[];
  score: number;
}

export interface SelectOptions {
  /** Sources at most (default 5: the contract's limit). */
  maxSources?: number;
  /** Passage text over all sources, in units of `cost` (default 12 000 characters): the writer's context. */
  budget?: number;
  /** What a passage counts against the budget (default its length; the model writer counts prompt tokens). */
  cost?: (text: string) => number;
  /** Passages per source at most (default 3). */
  perSourceMax?: number;
}

interface Passage {
  doc: number;
  idx: number;
  text: string;
  score: number;
  /** Its cost against the budget; -1 until asked (only candidates are costed). */
  size: number;
}

/**
 * Picks the sources and passages the writer sees. Passages are scored by BM25 against
 * the question (full weight) and the plan's queries (half); a document by its best
 * passage, a third of its second best and a small search-rank prior. Documents with no
 * matching term are left out while any document matches. Every chosen source gets its
 * best passage, then the best remaining passages fill the budget; passages are returned
 * in document order. The budget holds, unless the single best passage alone exceeds it.
 */
export function selectPassages(
  docs: RankInput[],
  question: string,
  queries: string[],
  o: SelectOptions = {},
): Selected[] {
  const maxSources = o.maxSources ?? 5,
    budget = o.budget ?? 12_000,
    perSource = o.perSourceMax ?? 3,
    cost = o.cost ?? ((t: string) => t.length);
  const all: Passage[] = [];
  docs.forEach((d, doc) => {
    splitPassages(d.text).forEach((text, idx) => {
      all.push({ doc, idx, text, score: 0, size: -1 });
    });
  });
  if (!all.length || maxSources < 1) return [];
  // The title helps tell what a passage is about, so it is scored along with it (read once per document).
  const bm = new Bm25(
    all.map((p) => p.text),
    { headings: docs.map((d) => d.title), heading: all.map((p) => p.doc) },
  );
  bm.scores(question).forEach((s, i) => {
    all[i]!.score += s;
  });
  for (const q of new Set(queries.filter((q) => q.trim() && q !== question)))
    bm.scores(q).forEach((s, i) => {
      all[i]!.score += s / 2;
    });

  const byDoc = docs.map(() => [] as Passage[]);
  for (const p of all) byDoc[p.doc]!.push(p);
  for (const list of byDoc) list.sort((a, b) => b.score - a.score);
  const top = Math.max(...all.map((p) => p.score));
  const docScore = byDoc.map((ps, d) => (ps[0]?.score ?? 0) + 0.3 * (ps[1]?.score ?? 0) + (top * 0.15) / (d + 1));
  const matching = (d: number) => (byDoc[d]![0]?.score ?? 0) > 0;
  const candidates = docs.map((_, d) => d).filter((d) => byDoc[d]!.length && (top <= 0 || matching(d)));
  const ranked = candidates.sort((a, b) => docScore[b]! - docScore[a]!).slice(0, maxSources);

  const sizeOf = (p: Passage) => {
    if (p.size < 0) p.size = cost(p.text);
    return p.size;
  };
  const picked = new Map<number, Passage[]>();
  let used = 0;
  const take = (p: Passage) => {
    picked.set(p.doc, [...(picked.get(p.doc) ?? []), p]);
    used += sizeOf(p);
  };
  for (const d of ranked) {
    const best = byDoc[d]![0]!;
    if (used + sizeOf(best) <= budget || used === 0) take(best);
  }
  const rest = [...picked.keys()].flatMap((d) => byDoc[d]!.slice(1)).sort((a, b) => b.score - a.score);
  for (const p of rest) {
    if (p.score <= 0 || (picked.get(p.doc)?.length ?? 0) >= perSource || used + sizeOf(p) > budget) continue;
    take(p);
  }
  return ranked
    .filter((d) => picked.has(d))
    .map((d) => ({
      key: docs[d]!.key,
      passages: picked
        .get(d)!
        .sort((a, b) => a.idx - b.idx)
        .map((p) => p.text),
      score: docScore[d]!,
    }));
}
