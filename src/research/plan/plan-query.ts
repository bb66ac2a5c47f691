import type { Llm } from "../llm/factory.ts";
import { LlmError } from "../llm/llm-error.ts";
import { estimateTokens } from "../engine/estimate.ts";
import { heuristicPlan, type Plan } from "./heuristic.ts";
import { parsePlan } from "./parse-plan.ts";

const SYSTEM = `You plan web and literature searches for a research assistant.
Reply with JSON only, no prose: {"kind": "academic"|"general"|"news"|"mixed", "language": "<ISO 639-1 code of the question's language>", "queries": ["<2 to 4 search engine queries>"]}
kind: academic when scholarly literature answers it best; news when it depends on recent events; mixed when both; general otherwise.
Queries: short keyword queries in the most useful language for finding sources, each covering a different aspect; the first one close to the question.`;

export interface PlanOutcome { plan: Plan; source: "llm" | "heuristic" | "fallback"; tokens_in: number; tokens_out: number }

/**
 * Plans with the fast model when there is one; any failure or unusable output falls back
 * to the heuristic plan, so planning never fails a run (only an abort propagates).
 */
export async function planQuery(question: string, o: { llm: Llm | null; signal: AbortSignal }): Promise<PlanOutcome> {
  const fallback = heuristicPlan(question);
  if (!o.llm) return { plan: fallback, source: "heuristic", tokens_in: 0, tokens_out: 0 };
  const user = `Question: ${question}`;
  const tokens_in = estimateTokens(SYSTEM + user);
  try {
    const r = await o.llm.client.chat({
      model: o.llm.fastModel, signal: o.signal, temperature: 0, maxTokens: 400,
      messages: [{ role: "system", content: SYSTEM }, { role: "user", content: user }],
    });
    const plan = parsePlan(r.text);
    if (!plan) return { plan: fallback, source: "fallback", tokens_in, tokens_out: estimateTokens(r.text) };
    // The question itself stays a query: models sometimes over-narrow.
    if (!plan.queries.some((q) => q.toLowerCase() === fallback.queries[0]!.toLowerCase())) plan.queries = [...plan.queries.slice(0, 3), fallback.queries[0]!];
    return { plan, source: "llm", tokens_in, tokens_out: estimateTokens(r.text) };
  } catch (e) {
    if (o.signal.aborted || (e instanceof LlmError && e.reason === "aborted")) throw e;
    return { plan: fallback, source: "fallback", tokens_in, tokens_out: 0 };
  }
}
