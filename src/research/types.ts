/** Kind of a source: found by a web search provider or an academic database. */
export type SourceType = "web" | "academic";

/**
 * A source as returned to clients (CONTRACT §5 "Source object"). `id` is "S1".."S5",
 * matching the markers in the answer. Clients ignore fields they don't know.
 */
export interface Source {
  id: string;
  title: string;
  url: string;
  type: SourceType;
  provider: string;
  snippet: string;
  published_at?: string;
  authors?: string[];
  venue?: string;
  doi?: string;
  /** Extra field: whether the answer drew on the full text ("page") or the database's abstract. */
  read?: "page" | "abstract";
}

/** The stages a run reaches, in order; each emits at least one progress event. */
export type Stage = "planning" | "searching" | "reading" | "writing";

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
  /** Estimates from text length over all model calls (SPEC §2 usage). */
  tokens_in: number;
  tokens_out: number;
}

/** Per-run context the service hands the engine. */
export interface RunContext {
  /** Aborted when the client goes away, the deadline passes or the server shuts down. */
  signal: AbortSignal;
  emit(event: RunEvent): void;
}

/**
 * The research engine. `run` resolves with a completed answer or throws an AppError
 * whose code is one of CONTRACT §5's run failure codes (search_failed, no_sources,
 * llm_failed, run_timeout, internal_error).
 */
export interface Engine {
  run(query: string, ctx: RunContext): Promise<EngineResult>;
}
