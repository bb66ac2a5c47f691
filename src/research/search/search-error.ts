/**
 * Why a provider call failed: a non-2xx answer, no answer in time, an answer we
 * can't read, a connection failure, the run itself being aborted, the provider's own
 * limit on requests, our pacing of a provider whose terms limit the request rate (the
 * call was not made: "skipped"), or a provider that answered but could not search (a
 * SearXNG whose every engine failed).
 */
export type SearchFailure =
  | "http_status"
  | "timeout"
  | "bad_payload"
  | "network"
  | "aborted"
  | "rate_limited"
  | "skipped"
  | "unavailable";

/** The failures that say this machine did not reach the provider (no answer at all), not what it answered. */
export const CONNECTION_FAILURES: ReadonlySet<string> = new Set<SearchFailure>(["network", "timeout"]);

/** A search provider's failure; one provider failing never fails a run by itself. */
export class SearchError extends Error {
  readonly provider: string;
  readonly reason: SearchFailure;
  /** The upstream HTTP status, for reason "http_status". */
  readonly status?: number;
  /**
   * The upstream's own account of the failure (its error text, SearXNG's engine reasons),
   * already trimmed and scrubbed of secrets; absent when it said nothing usable.
   */
  readonly detail?: string;
  constructor(provider: string, reason: SearchFailure, message: string, status?: number, detail?: string) {
    super(`${provider}: ${message}`);
    this.name = "SearchError";
    this.provider = provider;
    this.reason = reason;
    this.status = status;
    this.detail = detail;
  }
}
