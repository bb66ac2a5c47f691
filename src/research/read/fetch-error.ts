/**
 * Why a page could not be read. Beyond the guard's and transport's reasons: "empty" (too
 * little text to use) and "aborted" (the caller's signal, not our timeout, ended it).
 */
export type FetchFailure =
  | "blocked_address"
  | "bad_scheme"
  | "too_many_redirects"
  | "too_large"
  | "timeout"
  | "http_status"
  | "network"
  | "unsupported_type"
  | "empty"
  | "aborted";

/** Every failure of the reading stage, typed by a stable `reason`; `status` for "http_status". */
export class FetchError extends Error {
  constructor(
    readonly reason: FetchFailure,
    readonly url: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "FetchError";
  }
}
