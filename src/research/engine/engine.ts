import { AppError } from "../../contract/errors.ts";
import { nextTurn } from "../../util/turns.ts";
import type { Llm } from "../llm/factory.ts";
import { heuristicPlan } from "../plan/heuristic.ts";
import { planQuery } from "../plan/plan-query.ts";
import { inlineRanker, type Ranker } from "../rank/rank-job.ts";
import type { DocParser } from "../read/doc-parser.ts";
import type { Lookup } from "../read/url-guard.ts";
import { mergeAndRank } from "../search/merge.ts";
import { providersForRun, type SearchProviders } from "../search/registry.ts";
import { type ProviderAttempt, type QuestionKind, type SearchAllResult, searchAll } from "../search/run-search.ts";
import type { Engine, EngineResult, RunContext } from "../types.ts";
import { finalizeCitations } from "../write/citations.ts";
import { writeExtractive } from "../write/extractive-writer.ts";
import { writeWithLlm } from "../write/llm-writer.ts";
import { chooseSources } from "./choose-sources.ts";
import { hostOf, since } from "./estimate.ts";
import { readStage } from "./read-stage.ts";
import { usableDocs } from "./sources.ts";
import { type EngineTimings, resolveTimings } from "./timings.ts";
import { inlineVerifier, type Verifier, verifyStage } from "./verify-stage.ts";

/** Everything the engine needs, built from the config by build-engine.ts (tests build their own). */
export interface EngineDeps {
  llm: Llm | null;
  /** Tokens one writer call may reserve, prompt + max_tokens (LLM_TOKEN_BUDGET; default 4,000). */
  tokenBudget?: number;
  search: SearchProviders;
  allowPrivate: boolean;
  lookup?: Lookup;
  /** Candidates read per run. */
  maxCandidates?: number;
  /**
   * The reading stage's clocks; unset ones are DEFAULT_TIMINGS. (The other clocks live in
   * the llm, search and parser deps; buildEngine builds those from the same timings.)
   */
  timings?: Partial<
    Pick<EngineTimings, "pageTimeoutMs" | "readStageMs" | "stragglerGraceMinMs" | "stragglerGraceMaxMs">
  >;
  /** Counts upstream calls for /metrics. */
  onUpstream?: (provider: string, outcome: string) => void;
  /** Where pages and PDFs become text (the server: worker threads); default this thread. */
  parser?: DocParser;
  /** Where passages are split and ranked (the server: the parse workers); default this thread. */
  ranker?: Ranker;
  /** Where the claim check runs (the server: the parse workers); default this thread. */
  verifier?: Verifier;
}

/** Half of Groq's free-tier 8,000 tokens a minute: two runs a minute fit (README "The model as it really behaves"). */
export const DEFAULT_TOKEN_BUDGET = 4000;

/**
 * The research engine: plan → search → read → rank → write → cite. The question itself
 * is searched while the planner thinks (it is always one of the queries), so planning
 * costs no wall time on the search side.
 */
export function createEngine(deps: EngineDeps): Engine {
  const t = resolveTimings(deps.timings);
  return {
    async run(question: string, ctx: RunContext): Promise<EngineResult> {
      const { signal, emit } = ctx;
      const t0 = performance.now();
      let tokensIn = 0,
        tokensOut = 0;
      const attempt = (a: ProviderAttempt) => {
        deps.onUpstream?.(a.provider, a.ok ? "ok" : (a.error ?? "error"));
        emit({
          type: "progress",
          stage: "searching",
          message: `${a.provider}: ${a.ok ? `${a.count} results` : `failed (${a.error}${a.detail ? `: ${a.detail}` : ""})`}`,
          ...a,
        });
      };

      // Collections may be filled while the server runs: whether `local` takes part is asked per run.
      const providers = await providersForRun(deps.search, ctx.reader);
      // Settles either way, so the early search can't be an unhandled rejection while the planner thinks.
      const search = (queries: string[], kind: QuestionKind) =>
        searchAll(queries, kind, providers, { signal, onProviderDone: attempt }).then(
          (r) => ({ ok: true as const, r }),
          (e: unknown) => ({ ok: false as const, e }),
        );

      emit({ type: "progress", stage: "planning", message: "Working out what the question needs" });
      const quick = heuristicPlan(question);
      const early = search(
        [quick.queries[0]!],
        quick.kind === "general" || quick.kind === "news" ? quick.kind : "mixed",
      );
      const planned = await planQuery(question, { llm: deps.llm, signal, deadline: ctx.deadline });
      // Each stage's work waits its turn behind new requests (src/util/turns.ts).
      await nextTurn();
      tokensIn += planned.tokens_in;
      tokensOut += planned.tokens_out;
      const { plan } = planned;
      emit({
        type: "progress",
        stage: "planning",
        message: `Plan: ${plan.kind} question, ${plan.queries.length} queries`,
        kind: plan.kind,
        language: plan.language,
        queries: plan.queries,
        planner: planned.source,
        ms: since(t0),
      });

      const rest = plan.queries.filter((q) => q.toLowerCase() !== quick.queries[0]!.toLowerCase());
      emit({
        type: "progress",
        stage: "searching",
        message: `Searching ${[...providers.web, ...providers.academic, ...(providers.local ? [providers.local] : [])].map((p) => p.name).join(", ") || "no provider"}`,
        queries: plan.queries,
      });
      const [first, more] = await Promise.all([early, rest.length ? search(rest, plan.kind) : null]);
      await nextTurn();
      if (signal.aborted) throw new AppError("internal_error", "aborted");
      const found: SearchAllResult[] = [first, more].flatMap((x) => (x?.ok ? [x.r] : []));
      if (!found.length) throw first.ok ? (more as { e: unknown }).e : first.e;
      // Every provider × query list of both searches, fused in one ranking.
      const hits = mergeAndRank(
        found.flatMap((r) => r.lists),
        [question, ...plan.queries].join(" "),
      );
      if (!hits.length) throw new AppError("no_sources", "the search providers found nothing for this question");
      emit({
        type: "progress",
        stage: "searching",
        message: `Found ${hits.length} results`,
        count: hits.length,
        // Hosts the web results come from: a collection's document is no host, and its own URL could name one privately.
        hosts: [...new Set(hits.slice(0, 10).flatMap((h) => (h.local ? [] : [hostOf(h.url)])))],
        ms: since(t0),
      });

      const candidates = hits.slice(0, deps.maxCandidates ?? 8);
      emit({
        type: "progress",
        stage: "reading",
        message: `Reading ${candidates.length} sources`,
        urls: candidates.map((h) => h.url),
      });
      const results = await readStage(candidates, {
        signal,
        allowPrivate: deps.allowPrivate,
        lookup: deps.lookup,
        parser: deps.parser,
        perPageTimeoutMs: t.pageTimeoutMs,
        stageDeadlineMs: t.readStageMs,
        graceMs: t.stragglerGraceMaxMs,
        graceFloorMs: t.stragglerGraceMinMs,
        local: providers.local,
        queryText: [question, ...plan.queries].join(" "),
        emit,
        onUpstream: deps.onUpstream,
      });
      await nextTurn();
      if (signal.aborted) throw new AppError("internal_error", "aborted");
      const docs = usableDocs(results);
      if (!docs.length)
        throw new AppError("no_sources", `none of the ${candidates.length} sources found could be read`);

      const tokenBudget = deps.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
      const { provided, writerSources, texts } = await chooseSources(
        docs,
        results,
        question,
        plan,
        deps.llm ? tokenBudget : null,
        deps.ranker ?? inlineRanker,
        signal,
      );
      for (const source of provided) emit({ type: "source", source });
      emit({
        type: "progress",
        stage: "reading",
        message: `Read ${docs.length} of ${candidates.length}; using ${provided.length}`,
        read: docs.length,
        used: provided.length,
        ms: since(t0),
      });

      emit({
        type: "progress",
        stage: "writing",
        message: deps.llm ? "Writing the answer" : "Composing an extractive answer (no model configured)",
        writer: deps.llm ? "llm" : "extractive",
        sources: provided.length,
      });
      let text: string;
      if (deps.llm) {
        const w = await writeWithLlm({
          question,
          language: plan.language,
          sources: writerSources,
          llm: deps.llm,
          tokenBudget,
          signal,
          deadline: ctx.deadline,
          onDelta: (delta) => emit({ type: "answer", delta }),
        });
        deps.onUpstream?.("llm", "ok");
        text = w.text;
        tokensIn += w.tokens_in;
        tokensOut += w.tokens_out;
      } else {
        text = writeExtractive(question, plan.language, writerSources, {
          onDelta: (delta) => emit({ type: "answer", delta }),
        });
        if (!text) throw new AppError("no_sources", "the sources read hold no usable sentences");
      }
      await nextTurn();
      const written = finalizeCitations(text, provided);
      emit({
        type: "progress",
        stage: "writing",
        message: `Answer written with ${written.sources.length} cited sources`,
        cited: written.sources.length,
        chars: written.answer.length,
        ms: since(t0),
      });
      const read = written.was.map((old, i): [string, string] => [`S${i + 1}`, texts.get(old) ?? ""]);
      const final = await verifyStage(
        { answer: written.answer, sources: written.sources, texts: read, language: plan.language },
        ctx,
        deps.verifier ?? inlineVerifier,
        t0,
      );
      return {
        answer: final.answer,
        sources: final.sources,
        verification: final.verification,
        writer: deps.llm ? "llm" : "extractive",
        tokens_in: tokensIn,
        tokens_out: tokensOut,
      };
    },
  };
}
