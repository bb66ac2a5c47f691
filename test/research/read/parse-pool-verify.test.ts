import { describe, expect, test } from "bun:test";
import { createParsePool } from "../../../src/research/read/parse-pool.ts";
import type { Source } from "../../../src/research/types.ts";
import { type VerifyInput, verifyInput } from "../../../src/research/write/verify/verify-answer.ts";
import { GATED_WORKER, parseGate } from "../../fixtures/parse-gate.ts";

// The claim check as a parse-pool job (docs/decisions/0109-verification-off-the-server-thread.md).
const source = (id: string, url: string): Source => ({
  id,
  title: `Page ${id}`,
  url,
  type: "web",
  provider: "searxng",
  snippet: "",
});
const input = (url: string): VerifyInput => ({
  answer:
    "Base editors change a single DNA letter without cutting both strands [S1]. The first base editor was reported in 2016 [S2]. The Eiffel Tower is 330 metres tall [S1].",
  sources: [source("S1", url), source("S2", "https://y.example/b")],
  texts: [
    ["S1", "Base editors convert one DNA letter into another without cutting both strands of the helix."],
    ["S2", "Komor and colleagues reported the first base editor in 2016. It fused a deaminase to Cas9."],
  ],
  language: "en",
});

describe("the claim check on the parse pool", () => {
  test("runs on a worker while the loop stays free, with the same result as on this thread", async () => {
    const gate = parseGate();
    const pool = createParsePool({ size: 1, workerUrl: GATED_WORKER });
    try {
      const job = input("https://x.example/gated/a");
      let settled = false;
      const verified = pool.verify(job).finally(() => {
        settled = true;
      });
      // The worker announces the job: the loop heard it while the check was still to run.
      await gate.started("verify:https://x.example/gated/a");
      expect(settled).toBe(false);
      gate.open("verify:https://x.example/gated/a");
      const v = await verified;
      expect(v).toEqual(verifyInput(job));
      // The check did its work there: the unrelated claim lost its marker, the others kept theirs with quotes.
      expect(v.verification.unsupported).toBe(1);
      expect(v.sources.map((s) => s.evidence.length)).toEqual([1, 1]);
    } finally {
      pool.close();
      gate.close();
    }
  });

  test("where workers cannot start, the check runs on this thread with the same result", async () => {
    const pool = createParsePool({ size: 1, workerUrl: "/nonexistent/parse-worker.ts" });
    try {
      const job = input("https://x.example/a");
      expect(await pool.verify(job)).toEqual(verifyInput(job));
      // And again, once the pool knows its workers are broken.
      expect(await pool.verify(job)).toEqual(verifyInput(job));
    } finally {
      pool.close();
    }
  });

  test("a job the worker overruns is not redone on this thread: the check fails with the timeout", async () => {
    let overrun: (() => void) | undefined;
    const gate = parseGate();
    const pool = createParsePool({
      size: 1,
      workerUrl: GATED_WORKER,
      jobTimer: (onOverrun) => {
        overrun = onOverrun;
        return () => {};
      },
    });
    try {
      const job = input("https://x.example/gated/slow");
      const verified = pool.verify(job);
      await gate.started("verify:https://x.example/gated/slow");
      overrun!();
      // The run's verifying stage then keeps the answer as written
      // (docs/decisions/0116-the-claim-check-never-redone-here.md).
      expect(
        await verified.then(
          () => "checked",
          (e: Error) => e.message,
        ),
      ).toContain("parsing took longer than");
    } finally {
      pool.close();
      gate.close();
    }
  });
});
