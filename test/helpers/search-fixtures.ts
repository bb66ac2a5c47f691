import { afterAll, beforeAll, beforeEach } from "bun:test";
import { PROVIDERS, type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";

/**
 * The search fixtures for one test file: started before its tests, stopped after, and set
 * back to answering normally with an empty request log before each test.
 */
export function useSearchFixtures(pageBase: string, set: (fx: SearchFixtures) => void): void {
  let fx: SearchFixtures | undefined;
  beforeAll(() => {
    fx = startSearchFixtures(pageBase);
    set(fx);
  });
  afterAll(() => fx?.stop());
  beforeEach(() => {
    for (const p of PROVIDERS) fx?.setMode(p, "ok");
    if (fx) fx.requests.length = 0;
  });
}
