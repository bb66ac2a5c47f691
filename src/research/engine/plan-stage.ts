import { since } from "../../util/time.ts";
import { heuristicPlan } from "../plan/heuristic.ts";
import { planQuery } from "../plan/plan-query.ts";
import type { RunScope } from "./run-scope.ts";
import { type Planned, search } from "./search-stage.ts";
import { genAi, onRetryEvent } from "./traced.ts";

/**
 * The planning stage. The question itself is searched while the planner thinks (it is
 * always one of the queries), so planning costs no wall time on the search side.
 */
export async function planStage(_: undefined, run: RunScope): Promise<Planned> {
  const { question, ctx, deps } = run;
  ctx.emit({ type: "progress", stage: "planning", message: "Working out what the question needs" });
  const quick = heuristicPlan(question);
  const query = quick.queries[0]!;
  const searched = search([query], quick.kind === "general" || quick.kind === "news" ? quick.kind : "mixed", run);
  const span = run.spans.stage;
  const planned = await planQuery(question, {
    llm: deps.llm,
    signal: run.signal,
    deadline: ctx.deadline,
    onRetry: onRetryEvent(span),
  });
  run.tokens.in += planned.tokens_in;
  run.tokens.out += planned.tokens_out;
  span?.setAttribute("research.planner", planned.source);
  // The heuristic's plan called no model; a fallback's call failed or answered no plan (an event says which).
  if (planned.source === "fallback") span?.addEvent("fallback", { "research.fallback": "heuristic plan" });
  if (deps.llm && planned.source !== "heuristic")
    genAi(span, {
      provider: deps.llm.client.provider,
      model: deps.llm.fastModel ?? deps.llm.model,
      tokensIn: planned.tokens_in,
      tokensOut: planned.tokens_out,
    });
  const { plan } = planned;
  ctx.emit({
    type: "progress",
    stage: "planning",
    message: `Plan: ${plan.kind} question, ${plan.queries.length} queries`,
    kind: plan.kind,
    language: plan.language,
    queries: plan.queries,
    planner: planned.source,
    ms: since(run.t0),
  });
  return { plan, early: { query, searched } };
}
