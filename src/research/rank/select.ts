import { Bm25 } from "./bm25.ts";
import { splitPassages } from "./passages.ts";

/** A document the reading stage produced (page text or abstract), in search-rank order. */
export interface RankInput { key: string; title: string; text: string }

export interface Selected { key: string; passages: string[]; score: number }

export interface SelectOptions { maxSources?: number; charBudget?: number; perSourceMax?: number }

/**
 * Picks the sources and passages the writer sees: passages scored by BM25 against the
 * question (full weight) and the plan's queries (half), documents by their best two
 * passages plus a small search-rank prior, at most `maxSources`, then the best passages
 * within the character budget, kept in document order per source.
 */
export function selectPassages(docs: RankInput[], question: string, queries: string[], o: SelectOptions = {}): Selected[] {
  const maxSources = o.maxSources ?? 5, budget = o.charBudget ?? 12_000, perSource = o.perSourceMax ?? 3;
  const all: { doc: number; idx: number; text: string }[] = [];
  docs.forEach((d, doc) => splitPassages(`${d.text}`).forEach((text, idx) => all.push({ doc, idx, text })));
  if (!all.length) return [];
  const bm = new Bm25(all.map((p) => p.text));
  const score = bm.scores(question);
  for (const q of queries.filter((q) => q !== question)) bm.scores(q).forEach((s, i) => { score[i]! += s / 2; });
  const byDoc = docs.map(() => [] as number[]);
  all.forEach((p, i) => byDoc[p.doc]!.push(i));
  const top = Math.max(...score, 1e-9);
  const docScore = byDoc.map((ids, d) => {
    const s = ids.map((i) => score[i]!).sort((a, b) => b - a);
    return (s[0] ?? 0) + 0.3 * (s[1] ?? 0) + (top * 0.15) / (d + 1);
  });
  const chosen = docs.map((_, d) => d).filter((d) => byDoc[d]!.length).sort((a, b) => docScore[b]! - docScore[a]!).slice(0, maxSources);
  const picked = new Map<number, number[]>(chosen.map((d) => [d, []]));
  let used = 0;
  // Every chosen source gets its best passage first; then the best of the rest while the budget lasts.
  for (const d of chosen) {
    const best = byDoc[d]!.reduce((a, b) => (score[b]! > score[a]! ? b : a));
    picked.get(d)!.push(best);
    used += all[best]!.text.length;
  }
  const rest = chosen.flatMap((d) => byDoc[d]!).filter((i) => !picked.get(all[i]!.doc)!.includes(i)).sort((a, b) => score[b]! - score[a]!);
  for (const i of rest) {
    const list = picked.get(all[i]!.doc)!;
    if (list.length >= perSource || score[i]! <= 0 || used + all[i]!.text.length > budget) continue;
    list.push(i);
    used += all[i]!.text.length;
  }
  return chosen.map((d) => ({
    key: docs[d]!.key,
    passages: picked.get(d)!.sort((a, b) => all[a]!.idx - all[b]!.idx).map((i) => all[i]!.text),
    score: docScore[d]!,
  }));
}
