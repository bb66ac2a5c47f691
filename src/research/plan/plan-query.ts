import type { Llm } from "../llm/factory.ts";
import { isAbort, LlmError } from "../llm/llm-error.ts";
import { estimateTokens } from "../llm/token-estimate.ts";
import { heuristicPlan, type Plan } from "./heuristic.ts";
import { parsePlan } from "./parse-plan.ts";

/** The planner's system prompt; test fixtures recognise planner calls by its first line. */
export const PLANNER_SYSTEM = `You plan web and literature searches for a research assistant.
Reply with JSON only, no prose: {"kind": "academic"|"general"|"news"|"mixed", "language": "<ISO 639-1 code of the question's language>", "queries": ["<2 to 4 search engine queries>"]}
kind: academic when scholarly literature answers it best; news when it depends on recent events; mixed when both; general otherwise.
Queries: short keyword queries in the most useful language for finding sources, each covering a different aspect; the first one close to the question.`;

/** The model the planner uses: the fast one when there is one. */
export type PlannerLlm = Pick<Llm, "client" | "model"> & { fastModel?: string };

/** A plan and where it came from: the model, the heuristic (no model), or the heuristic after the model failed. */
export interface PlanOutcome {
  plan: Plan;
  source: "llm" | "heuristic" | "fallback";
  tokens_in: number;
  tokens_out: number;
}

/**
 * Plans with the fast model when there is one; any failure or unusable output falls back
 * to the heuristic plan, so planning never fails a run (only an abort propagates, as an
 * LlmError with reason "aborted").
 */
export async function planQuery(
  question: string,
  o: {
    llm?: PlannerLlm | null;
    signal: AbortSignal;
    deadline?: number;
    onRetry?: (attempt: number, reason: string) => void;
  },
): Promise<PlanOutcome> {
  const fallback = heuristicPlan(question);
  if (!o.llm) return { plan: fallback, source: "heuristic", tokens_in: 0, tokens_out: 0 };
  const user = `Question: ${question}`;
  const tokens_in = estimateTokens(PLANNER_SYSTEM + user);
  let text: string;
  try {
    // Reasoning models spend output tokens thinking before the JSON; leave them room.
    const r = await o.llm.client.chat({
      model: o.llm.fastModel ?? o.llm.model,
      signal: o.signal,
      deadline: o.deadline,
      onRetry: o.onRetry,
      temperature: 0,
      maxTokens: 1500,
      messages: [
        { role: "system", content: PLANNER_SYSTEM },
        { role: "user", content: user },
      ],
    });
    text = r.text;
  } catch (e) {
    if (o.signal.aborted || isAbort(e)) throw e instanceof LlmError ? e : new LlmError("aborted", "aborted");
    return { plan: fallback, source: "fallback", tokens_in, tokens_out: 0 };
  }
  const tokens_out = estimateTokens(text);
  const plan = parsePlan(text, fallback.language);
  if (!plan) return { plan: fallback, source: "fallback", tokens_in, tokens_out };
  // The question itself stays a query: models sometimes over-narrow.
  const own = fallback.queries[0]!;
  if (!plan.queries.some((q) => q.toLowerCase() === own.toLowerCase()))
    plan.queries = [...plan.queries.slice(0, 3), own];
  return { plan, source: "llm", tokens_in, tokens_out };
}
