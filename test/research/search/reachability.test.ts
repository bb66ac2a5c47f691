import { afterAll, describe, expect, test } from "bun:test";
import { AcademicReach } from "../../../src/research/search/reachability.ts";
import type { ProviderAttempt } from "../../../src/research/search/run-search.ts";
import { closedPort } from "../../runs/collections-server.ts";

/**
 * What the server knows of the academic databases' reachability: a probe (any HTTP answer is
 * reachable, only a failure to connect is not) and the runs' own calls; "unreachable" is trusted
 * for the recheck interval, then probed again (docs/decisions/0142-refuse-before-acceptance-when-nothing-can-search.md).
 */

let hits = 0;
const up = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () => {
    hits++;
    return new Response("no such page", { status: 404 });
  },
});
afterAll(() => up.stop(true));

const attempt = (provider: string, error?: string): ProviderAttempt => ({
  provider,
  query: "q",
  ok: error === undefined,
  count: error === undefined ? 3 : 0,
  ms: 1,
  ...(error ? { error } : {}),
});

describe("AcademicReach", () => {
  test("an HTTP error answer is reachable; a closed port is not, with why", async () => {
    const reach = new AcademicReach([
      { name: "openalex", url: `http://127.0.0.1:${up.port}/openalex` },
      { name: "arxiv", url: `http://127.0.0.1:${closedPort()}/arxiv` },
    ]);
    expect((await reach.probe()).reachable).toBe(true);
    const down = await new AcademicReach([{ name: "arxiv", url: `http://127.0.0.1:${closedPort()}/` }]).probe();
    expect(down.reachable).toBe(false);
    expect(down.failures).toEqual([expect.stringMatching(/^arxiv: .+/)]);
  });

  test("a run whose every database call failed to connect makes it unreachable until the recheck, then it is probed", async () => {
    let now = 1_000;
    const reach = new AcademicReach([{ name: "openalex", url: `http://127.0.0.1:${up.port}/` }], {
      recheckMs: 30_000,
      now: () => now,
    });
    expect((await reach.check()).reachable).toBe(true);
    expect(reach.knownReachable).toBe(true);
    // Skipped and aborted calls say nothing of the network; a web provider's failure is not the databases'.
    reach.observe([attempt("openalex", "skipped"), attempt("searxng", "network")]);
    expect(reach.knownReachable).toBe(true);
    reach.observe([attempt("openalex", "network"), attempt("openalex", "timeout")]);
    expect(reach.knownReachable).toBe(false);
    const probes = hits;
    now += 29_000;
    expect((await reach.check()).reachable).toBe(false);
    expect(hits).toBe(probes);
    now += 2_000;
    expect((await reach.check()).reachable).toBe(true);
    expect(hits).toBe(probes + 1);
    // An HTTP error from a run's call is an answer: reachable.
    reach.observe([attempt("openalex", "http_status")]);
    expect(reach.knownReachable).toBe(true);
  });

  test("questions arriving together share one probe", async () => {
    const reach = new AcademicReach([{ name: "openalex", url: `http://127.0.0.1:${up.port}/` }]);
    const before = hits;
    await Promise.all([reach.check(), reach.check(), reach.check()]);
    expect(hits).toBe(before + 1);
  });
});
