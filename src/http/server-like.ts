/** Bun's server object, the part the HTTP layer uses (tests and the bench pass their own). */
export interface ServerLike {
  /** Per-request idle timeout in seconds; 0 exempts a long run from Bun's idle cut. */
  timeout(request: Request, seconds: number): void;
  requestIP(request: Request): { address: string } | null;
}
