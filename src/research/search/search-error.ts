/** Why a provider call failed; one provider failing never fails a run by itself. */
export type SearchFailure = "http_status" | "timeout" | "bad_payload" | "network" | "aborted";

export class SearchError extends Error {
  constructor(readonly provider: string, readonly reason: SearchFailure, message: string, readonly status?: number) {
    super(`${provider}: ${message}`);
    this.name = "SearchError";
  }
}
