import { setDefaultTimeout } from "bun:test";

/**
 * Runs start real servers and fixture upstreams; a 2-core CI machine needs headroom.
 * Bun applies setDefaultTimeout per test file (a preload only reaches the first), so
 * every integration test file calls this at its top.
 */
export function useLongTimeout(): void {
  setDefaultTimeout(30_000);
}

useLongTimeout();
