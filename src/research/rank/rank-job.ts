import { promptTokens } from "../llm/token-estimate.ts";
import { type RankInput, type Selected, selectPassages } from "./select.ts";

/**
 * How much of each page the ranking reads. A page may be 5 MB of text; what lies past this
 * is rarely what a run quotes, and reading it costs the ranking about a second a megabyte
 * (docs/decisions/0115-passage-work-off-the-server-thread.md).
 */
export const RANKED_CHARS = 200_000;

/**
 * One run's ranking as it crosses to a parse worker: plain data only. `unit` says what a
 * passage costs against `budget`: prompt tokens (a model writes) or characters (extractive).
 */
export interface PassageRanking {
  docs: RankInput[];
  question: string;
  queries: string[];
  maxSources: number;
  perSourceMax: number;
  budget: number;
  unit: "tokens" | "chars";
}

/** Where the ranking runs: the server's parse workers, or this thread. */
export type Ranker = (job: PassageRanking, signal?: AbortSignal) => Promise<Selected[]>;

/**
 * selectPassages over a PassageRanking: the same code on a worker and on this thread. Its pages
 * come cut at RANKED_CHARS (choose-sources.ts cuts them, so no more than that is copied over).
 */
export function rankJob(j: PassageRanking): Selected[] {
  return selectPassages(j.docs, j.question, j.queries, {
    maxSources: j.maxSources,
    perSourceMax: j.perSourceMax,
    budget: j.budget,
    ...(j.unit === "tokens" ? { cost: promptTokens } : {}),
  });
}

export const inlineRanker: Ranker = async (job) => rankJob(job);
