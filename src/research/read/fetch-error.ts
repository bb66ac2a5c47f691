/** Why a page could not be read. */
export type FetchFailure =
  | "blocked_address" | "bad_scheme" | "too_many_redirects" | "too_large" | "timeout"
  | "http_status" | "network" | "unsupported_type" | "empty" | "aborted";

export class FetchError extends Error {
  constructor(readonly reason: FetchFailure, readonly url: string, message: string, readonly status?: number) {
    super(message);
    this.name = "FetchError";
  }
}
