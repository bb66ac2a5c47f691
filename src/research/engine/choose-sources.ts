import { RANKED_CHARS, type Ranker } from "../rank/rank-job.ts";
import type { ReadResult } from "../read/read-all.ts";
import type { RankedHit } from "../search/merge.ts";
import type { Source } from "../types.ts";
import { writerBudget } from "../write/budget.ts";
import type { WriterSource } from "../write/prompt.ts";
import { type ReadableDoc, toSource } from "./sources.ts";

/** At most this many sources reach the writer (the contract's limit), with at most PER_SOURCE passages each. */
const MAX_SOURCES = 5;
const PER_SOURCE = 3;
/** The extractive writer's context, in characters: it quotes, so no model's budget applies. */
const EXTRACTIVE_CHARS = 12_000;
/**
 * The claim check reads at most this much of a page besides the passages the writer saw: a
 * book-length page would cost the check ~100 ms a megabyte, and claims come from the passages.
 */
const CHECKED_CHARS = 150_000;

/** The chosen sources: as the envelope lists them, and as the writer reads them. */
export interface Chosen {
  provided: Source[];
  writerSources: WriterSource[];
  /** What the run read of each, by id: the claim check looks for its quotes there. */
  texts: Map<string, string>;
}

/**
 * Picks the sources and passages the writer sees, by `rank` (the server: on a parse worker).
 * For a model writer they are counted in prompt tokens within its call's budget
 * (`tokenBudget`), so the call fits whatever the script; for the extractive writer
 * (`tokenBudget` null) in characters.
 */
export async function chooseSources(
  docs: ReadableDoc[],
  results: ReadResult<RankedHit>[],
  question: string,
  plan: { queries: string[]; language: string },
  tokenBudget: number | null,
  rank: Ranker,
  signal?: AbortSignal,
): Promise<Chosen> {
  const chosen = await rank(
    {
      // Only what the ranking reads is copied to the worker.
      docs: docs.map((d) => ({ key: d.key, title: d.title, text: d.text.slice(0, RANKED_CHARS) })),
      question,
      queries: plan.queries,
      maxSources: MAX_SOURCES,
      perSourceMax: PER_SOURCE,
      ...(tokenBudget !== null
        ? { budget: writerBudget(tokenBudget, question, plan.language, MAX_SOURCES).passageTokens, unit: "tokens" }
        : { budget: EXTRACTIVE_CHARS, unit: "chars" }),
    },
    signal,
  );
  const byKey = new Map(docs.map((d) => [d.key, d]));
  const provided: Source[] = [];
  const writerSources: WriterSource[] = [];
  const texts = new Map<string, string>();
  chosen.forEach((c, i) => {
    const d = byKey.get(c.key)!;
    const src = toSource(`S${i + 1}`, d, c.passages, results[Number(c.key)]?.doc?.published_at);
    provided.push(src);
    texts.set(
      src.id,
      d.text.length <= CHECKED_CHARS ? d.text : `${c.passages.join("\n\n")}\n\n${d.text.slice(0, CHECKED_CHARS)}`,
    );
    writerSources.push({
      id: src.id,
      title: src.title,
      url: src.url,
      passages: c.passages,
      published_at: src.published_at,
    });
  });
  return { provided, writerSources, texts };
}
