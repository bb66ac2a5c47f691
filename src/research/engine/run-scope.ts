import type { Span } from "../../util/tracing/spans.ts";
import type { Llm } from "../llm/factory.ts";
import type { Ranker } from "../rank/rank-job.ts";
import type { DocParser } from "../read/doc-parser.ts";
import type { Lookup } from "../read/url-guard.ts";
import type { RunProviders, SearchProviders } from "../search/registry.ts";
import type { RunContext } from "../types.ts";
import type { SecondOpinion } from "./second-opinion.ts";
import type { EngineTimings } from "./timings.ts";
import type { Verifier } from "./verify-stage.ts";

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
  /** The checking model asked about the citations the check is least sure of (VERIFY_BASE_URL); none: never asked. */
  secondOpinion?: SecondOpinion;
}

/** One run as each of its stages sees it: the question, the engine's deps, the run's context. */
export interface RunScope {
  question: string;
  ctx: RunContext;
  signal: AbortSignal;
  deps: EngineDeps;
  timings: EngineTimings;
  /** When the run's engine started (performance.now()): each stage's `ms`. */
  t0: number;
  /** The providers this run searches (whether `local` takes part is asked per run). */
  providers: RunProviders;
  /** Estimated tokens of the model calls so far. */
  tokens: { in: number; out: number };
  /** Traces on: the running stage's span, and the search's (it starts while the planner thinks). */
  spans: { stage?: Span };
}
