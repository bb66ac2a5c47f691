import type { Verification, Source as WireSource } from "../contract/envelope.ts";
import type { AppError, ErrorItem as AppErrorItem } from "../contract/errors.ts";
import type { Stage } from "../contract/events.ts";
import type { Awaitable, CollectionReader } from "../store/types.ts";
import type { Span } from "../util/tracing/spans.ts";
import type { ReachState } from "./search/reachability.ts";

// The wire types the engine produces are the contract's (src/contract/).
export type { SourceType } from "../contract/envelope.ts";

/**
 * A source as the engine produces it: the contract's, and on a local one the store's id of
 * its collection (`collection_id`), which the run's record keeps so that later reads can
 * withhold what their reader may no longer read; no caller is ever sent it
 * (docs/decisions/0086-earlier-runs-withhold-what-their-reader-cannot-read.md).
 */
export type Source = WireSource & { collection_id?: number };

/**
 * What the engine tells the service while it works. The service forwards these as
 * SSE events and records all but `answer` deltas in the run's timeline.
 */
export type RunEvent =
  | { type: "progress"; stage: Stage; message: string; [detail: string]: unknown }
  | { type: "source"; source: Source }
  | { type: "answer"; delta: string };

/** What a completed run produced. */
export interface EngineResult {
  answer: string;
  sources: Source[];
  writer: "llm" | "extractive";
  /** What the claim check found (README "Claims you can check"); the engine always sets it, test engines may not. */
  verification?: Verification;
  /** Estimates from text length over all model calls (the envelope's usage, src/contract/envelope.ts). */
  tokens_in: number;
  tokens_out: number;
  /** What went wrong without failing the run (a second opinion that could not be had), for the envelope's `errors`. */
  errors?: AppErrorItem[];
}

/** Per-run context the service hands the engine. */
export interface RunContext {
  /** Aborted when the client goes away, the deadline passes or the server shuts down. */
  signal: AbortSignal;
  /** When the run's deadline falls (epoch ms): model calls don't start waits that end past it. */
  deadline?: number;
  emit(event: RunEvent): void;
  /** Whose collections the run may search (README "Collections for a team"). */
  reader: CollectionReader;
  /** The run's span (traces on): every stage's span hangs under it, passed by hand, not by async context. */
  span?: Span;
  /** The run's id, on every span. */
  requestId?: string;
}

/**
 * The research engine. `run` resolves with a completed answer or throws an AppError
 * whose code is one of the run failure codes (README "The API") (search_failed, no_sources,
 * llm_failed, run_timeout, internal_error).
 */
export interface Engine {
  run(query: string, ctx: RunContext): Promise<EngineResult>;
  /**
   * Why a question from `reader` could search nothing now (search_unavailable), or null:
   * asked before a run is accepted, so such a question is never charged. Engines without it
   * are never refused.
   */
  refusal?(reader: CollectionReader): Awaitable<AppError | null>;
  /** Probes the academic databases (at start): what was learned, or undefined with none configured. */
  probe?(): Promise<ReachState | undefined>;
}
