import { AppError } from "../../contract/errors.ts";
import { since } from "../../util/time.ts";
import { endSpan } from "../../util/tracing/spans.ts";
import type { Plan } from "../plan/heuristic.ts";
import { hostOf } from "../read/host-of.ts";
import { mergeAndRank, type RankedHit } from "../search/merge.ts";
import { NEXT_STEPS } from "../search/next-steps.ts";
import { type ProviderAttempt, type QuestionKind, type SearchAllResult, searchAll } from "../search/run-search.ts";
import type { RunScope } from "./run-scope.ts";
import { pastRunChild } from "./traced.ts";

/** A search that settles either way, so one started early can't be an unhandled rejection while the planner thinks. */
export type Searched = { ok: true; r: SearchAllResult } | { ok: false; e: unknown };

/** Searches `queries` with the run's providers, each provider call's outcome a `progress` event. */
export function search(queries: string[], kind: QuestionKind, run: RunScope): Promise<Searched> {
  const { deps, ctx } = run;
  const attempt = (a: ProviderAttempt) => {
    deps.onUpstream?.(a.provider, a.ok ? "ok" : (a.error ?? "error"));
    // Never the query: it is the question, or made from it.
    // One span a provider call, under the run: the early search runs beside the planner, so no stage span holds them all.
    const span = pastRunChild(run, "research.search", a.ms, {
      "research.provider": a.provider,
      "research.results": a.count,
      ...(a.status ? { "http.response.status_code": a.status } : {}),
    });
    endSpan(span, a.ok ? undefined : (a.error ?? "error"));
    ctx.emit({
      type: "progress",
      stage: "searching",
      message: `${a.provider}: ${a.ok ? `${a.count} results` : `failed (${a.error}${a.detail ? `: ${a.detail}` : ""})`}`,
      ...a,
    });
  };
  return searchAll(queries, kind, run.providers, { signal: run.signal, onProviderDone: attempt }).then(
    (r) => ({ ok: true as const, r }),
    (e: unknown) => ({ ok: false as const, e }),
  );
}

/** What planning hands the search: the plan, and the search of the question itself already under way. */
export interface Planned {
  plan: Plan;
  /** The query searched while the planner thought. */
  early: { query: string; searched: Promise<Searched> };
}

/** The search stage: the plan's other queries beside the early search, every list fused in one ranking. */
export async function searchStage({ plan, early }: Planned, run: RunScope): Promise<{ plan: Plan; hits: RankedHit[] }> {
  const { providers, ctx } = run;
  const rest = plan.queries.filter((q) => q.toLowerCase() !== early.query.toLowerCase());
  ctx.emit({
    type: "progress",
    stage: "searching",
    message: `Searching ${[...providers.web, ...providers.academic, ...(providers.local ? [providers.local] : [])].map((p) => p.name).join(", ") || "no provider"}`,
    queries: plan.queries,
  });
  const [first, more] = await Promise.all([early.searched, rest.length ? search(rest, plan.kind, run) : null]);
  const found: SearchAllResult[] = [first, more].flatMap((x) => (x?.ok ? [x.r] : []));
  if (!found.length) throw first.ok ? (more as { e: unknown }).e : first.e;
  // Every provider × query list of both searches, fused in one ranking.
  const hits = mergeAndRank(
    found.flatMap((r) => r.lists),
    [run.question, ...plan.queries].join(" "),
  );
  if (!hits.length)
    throw new AppError(
      "no_sources",
      `the search providers found nothing for this question. What to do: ask it in other words${providers.local ? "" : ", or add documents on its subject (`research-query corpus add PATH --shared`, or the Documents page)"}${providers.web.length ? "" : `, or ${NEXT_STEPS.configureWeb}`}.`,
    );
  ctx.emit({
    type: "progress",
    stage: "searching",
    message: `Found ${hits.length} results`,
    count: hits.length,
    // Hosts the web results come from: a collection's document is no host, and its own URL could name one privately.
    hosts: [...new Set(hits.slice(0, 10).flatMap((h) => (h.local ? [] : [hostOf(h.url)])))],
    ms: since(run.t0),
  });
  ctx.span?.setAttribute("research.results", hits.length);
  return { plan, hits };
}
