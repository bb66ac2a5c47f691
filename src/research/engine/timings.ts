import { GROQ_ATTEMPT_MS } from "../llm/groq.ts";
import { OPENAI_ATTEMPT_MS } from "../llm/openai-compatible.ts";
import { DEFAULT_RETRY, type RetryPolicy } from "../llm/retry.ts";
import { PARSE_JOB_MS } from "../read/parse-pool-setup.ts";
import { READ_DEFAULTS } from "../read/read-all.ts";
import { PROVIDER_NAMES, SEARCH_PROVIDERS, type SearchProviderName } from "../search/providers.ts";
import { SECOND_OPINION_MS } from "./second-opinion.ts";

/**
 * Every clock a run waits on, in one place, so tests can shrink them and prove the same
 * behaviour in milliseconds. The defaults are the modules' own constants, so production
 * timings can't drift from what each module does when used on its own.
 */
export interface EngineTimings {
  /** One page: connect, redirects and body (README "How a run works": 8 s a page). */
  pageTimeoutMs: number;
  /** The whole reading stage (15 s). */
  readStageMs: number;
  /** Once four pages are read, stragglers get half a typical page's time, within these bounds. */
  stragglerGraceMinMs: number;
  stragglerGraceMaxMs: number;
  /** A parse running longer on a worker thread is a runaway: the worker is replaced. */
  parseJobMs: number;
  /** LLM retries: first backoff (doubling per attempt), its ceiling, and the ceiling of a server's Retry-After. */
  llmRetryBaseMs: number;
  llmRetryCapMs: number;
  llmRetryAfterCapMs: number;
  /** One LLM call attempt, planner's or writer's (there is no separate planner timeout). */
  llmAttemptMs: { openai: number; groq: number };
  /** Each search provider's own timeout. */
  searchTimeoutMs: Record<SearchProviderName, number>;
  /** How long academic databases found unreachable stay so before the next question probes them again. */
  academicRecheckMs: number;
  /** The longest a run waits for the checking model's second opinion (VERIFY_BASE_URL). */
  secondOpinionMs: number;
}

export const DEFAULT_TIMINGS: Readonly<EngineTimings> = Object.freeze({
  pageTimeoutMs: READ_DEFAULTS.perPageTimeoutMs,
  readStageMs: READ_DEFAULTS.stageDeadlineMs,
  stragglerGraceMinMs: READ_DEFAULTS.graceFloorMs,
  stragglerGraceMaxMs: READ_DEFAULTS.graceMs,
  parseJobMs: PARSE_JOB_MS,
  llmRetryBaseMs: DEFAULT_RETRY.baseDelayMs,
  llmRetryCapMs: DEFAULT_RETRY.maxDelayMs,
  llmRetryAfterCapMs: DEFAULT_RETRY.maxRetryAfterMs,
  llmAttemptMs: { openai: OPENAI_ATTEMPT_MS, groq: GROQ_ATTEMPT_MS },
  searchTimeoutMs: Object.fromEntries(PROVIDER_NAMES.map((n) => [n, SEARCH_PROVIDERS[n].timeoutMs])) as Record<
    SearchProviderName,
    number
  >,
  academicRecheckMs: 30_000,
  secondOpinionMs: SECOND_OPINION_MS,
});

/** What a caller may override: any field, and any single provider inside the per-provider maps. */
export type TimingsOverride = {
  [K in keyof EngineTimings]?: EngineTimings[K] extends number ? number : Partial<EngineTimings[K]>;
};

/** The defaults with `o` laid over them (one level deep for the per-provider maps). */
export function resolveTimings(o: TimingsOverride = {}): EngineTimings {
  const { llmAttemptMs, searchTimeoutMs, ...flat } = o;
  return {
    ...DEFAULT_TIMINGS,
    ...defined(flat),
    llmAttemptMs: { ...DEFAULT_TIMINGS.llmAttemptMs, ...defined(llmAttemptMs) },
    searchTimeoutMs: { ...DEFAULT_TIMINGS.searchTimeoutMs, ...defined(searchTimeoutMs) },
  };
}

// `{ pageTimeoutMs: undefined }` means "not set", not "no timeout".
const defined = <T extends object>(o: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;

/** The LLM clients' retry policy under these timings (the number of retries is not a timing). */
export function retryPolicy(t: EngineTimings): RetryPolicy {
  return {
    ...DEFAULT_RETRY,
    baseDelayMs: t.llmRetryBaseMs,
    maxDelayMs: t.llmRetryCapMs,
    maxRetryAfterMs: t.llmRetryAfterCapMs,
  };
}
