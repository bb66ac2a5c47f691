import { AppError } from "../../contract/errors.ts";
import { since } from "../../util/time.ts";
import { endSpan } from "../../util/tracing/spans.ts";
import { inlineRanker } from "../rank/rank-job.ts";
import type { Source } from "../types.ts";
import { nothingOnIt, relevantSources } from "../write/extractive-relevance.ts";
import { writeExtractive } from "../write/extractive-writer.ts";
import { writeWithLlm } from "../write/llm-writer.ts";
import { chooseSources } from "./choose-sources.ts";
import type { Read } from "./read-stage.ts";
import type { RunScope } from "./run-scope.ts";
import { usableDocs } from "./sources.ts";
import { errorCodeOf, genAi, onRetryEvent, runChild } from "./traced.ts";

/** Half of Groq's free-tier 8,000 tokens a minute: two runs a minute fit (docs/how-it-behaves.md "The model"). */
const DEFAULT_TOKEN_BUDGET = 4000;

/** What the writing stage hands the check: the answer as written, over the sources it was given. */
export interface Written {
  language: string;
  text: string;
  /** The sources the answer may cite: none when an extractive answer found nothing on the question. */
  provided: Source[];
  /** What the run read of each source, by id. */
  texts: Map<string, string>;
}

/**
 * The writing stage: the sources and passages the writer sees, chosen and ranked (the server:
 * on a parse worker), then the answer, a model's streamed as `answer` deltas, or extractive.
 */
export async function writeStage({ plan, candidates, results }: Read, run: RunScope): Promise<Written> {
  const { deps, ctx, question } = run;
  const docs = usableDocs(results);
  if (!docs.length) throw new AppError("no_sources", `none of the ${candidates} sources found could be read`);
  const tokenBudget = deps.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
  const span = run.spans.stage;
  const rank = span && runChild(run, "research.rank", run.ctx.span, { "research.documents": docs.length });
  const { provided, writerSources, texts } = await chooseSources(
    docs,
    results,
    question,
    plan,
    deps.llm ? tokenBudget : null,
    deps.ranker ?? inlineRanker,
    run.signal,
  ).catch((e: unknown) => {
    endSpan(rank, errorCodeOf(e));
    throw e;
  });
  rank?.setAttribute("research.sources", provided.length);
  endSpan(rank);
  for (const source of provided) ctx.emit({ type: "source", source });
  ctx.emit({
    type: "progress",
    stage: "reading",
    message: `Read ${docs.length} of ${candidates}; using ${provided.length}`,
    read: docs.length,
    used: provided.length,
    ms: since(run.t0),
  });

  ctx.emit({
    type: "progress",
    stage: "writing",
    message: deps.llm ? "Writing the answer" : "Composing an extractive answer (no model configured)",
    writer: deps.llm ? "llm" : "extractive",
    sources: provided.length,
  });
  const onDelta = (delta: string) => ctx.emit({ type: "answer", delta });
  if (!deps.llm) {
    // Only the sources that answer the question are quoted; none, and the answer says so and cites nothing.
    const relevant = relevantSources(question, plan.language, writerSources);
    if (!relevant.length) {
      const text = nothingOnIt(plan.language);
      onDelta(text);
      return { language: plan.language, text, provided: [], texts: new Map() };
    }
    const text = writeExtractive(question, plan.language, relevant, { onDelta });
    if (!text) throw new AppError("no_sources", "the sources read hold no usable sentences");
    return { language: plan.language, text, provided, texts };
  }
  const w = await writeWithLlm({
    question,
    language: plan.language,
    sources: writerSources,
    llm: deps.llm,
    tokenBudget,
    signal: run.signal,
    deadline: ctx.deadline,
    onDelta,
    onRetry: onRetryEvent(span),
  });
  deps.onUpstream?.("llm", "ok");
  run.tokens.in += w.tokens_in;
  run.tokens.out += w.tokens_out;
  genAi(span, {
    provider: deps.llm.client.provider,
    model: deps.llm.model,
    tokensIn: w.tokens_in,
    tokensOut: w.tokens_out,
  });
  return { language: plan.language, text: w.text, provided, texts };
}
