/**
 * Why a provider call failed: a non-2xx answer, no answer in time, an answer we
 * can't read, a connection failure, or the run itself being aborted.
 */
export type SearchFailure = "http_status" | "timeout" | "bad_payload" | "network" | "aborted";

/** A search provider's failure; one provider failing never fails a run by itself. */
export class SearchError extends Error {
  readonly provider: string;
  readonly reason: SearchFailure;
  /** The upstream HTTP status, for reason "http_status". */
  readonly status?: number;
  constructor(provider: string, reason: SearchFailure, message: string, status?: number) {
    super(`${provider}: ${message}`);
    this.name = "SearchError";
    this.provider = provider;
    this.reason = reason;
    this.status = status;
  }
}

export function isSearchError(e: unknown): e is SearchError {
  return e instanceof SearchError;
}
