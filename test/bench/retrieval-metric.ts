/** A query with the documents judged relevant to it (BEIR qrels, binary). */
export interface JudgedQuery {
  id: string;
  text: string;
  relevant: string[];
}

/** nDCG@k with binary relevance, as trec_eval computes it (ideal ranking from all judged documents). */
export function ndcgAt(ranked: string[], relevant: Set<string>, k = 10): number {
  let dcg = 0;
  for (const [i, id] of ranked.slice(0, k).entries()) if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
  let ideal = 0;
  for (let i = 0; i < Math.min(relevant.size, k); i++) ideal += 1 / Math.log2(i + 2);
  return ideal ? dcg / ideal : 0;
}

/** Share of the relevant documents found in the first k. */
export function recallAt(ranked: string[], relevant: Set<string>, k = 100): number {
  if (!relevant.size) return 0;
  return ranked.slice(0, k).filter((id) => relevant.has(id)).length / relevant.size;
}
