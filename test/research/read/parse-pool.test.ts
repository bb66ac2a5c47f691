import { describe, expect, test } from "bun:test";
import { inlineParser } from "../../../src/research/read/doc-parser.ts";
import { FetchError } from "../../../src/research/read/fetch-error.ts";
import { createParsePool } from "../../../src/research/read/parse-pool.ts";
import { GATED_WORKER, parseGate } from "../../fixtures/parse-gate.ts";
import { tinyPdf } from "../../fixtures/tiny-pdf.ts";

const page = new TextEncoder().encode(
  `<html><head><title>Base editing</title></head><body><nav>Home</nav><article><h1>Base editing</h1>${"<p>Base editors convert one DNA letter into another without cutting both strands.</p>".repeat(6)}</article></body></html>`,
);

describe("parse pool (worker threads)", () => {
  test("parses HTML and PDF off the main thread with the same results as inline", async () => {
    const pool = createParsePool({ size: 2 });
    try {
      const [a, b] = await Promise.all([
        pool.html(page, "text/html; charset=utf-8", "https://x.example/a"),
        inlineParser.html(page, "text/html; charset=utf-8", "https://x.example/a"),
      ]);
      expect(a).toEqual(b);
      expect(a.text).toContain("Base editors convert");
      const pdf = await pool.pdf(tinyPdf(["Alpha line", "Beta (line)"], "T"), "https://x.example/p.pdf");
      expect(pdf.text).toContain("Beta (line)");
      expect(pdf.title).toBe("T");
    } finally {
      pool.close();
    }
  });

  test("the main loop stays free while a worker parses", async () => {
    // Inline, the parse would hold the loop until it ended; here the loop hears the worker
    // announce the job, and answers it, while the job is under way.
    const gate = parseGate();
    const pool = createParsePool({ size: 1, workerUrl: GATED_WORKER });
    try {
      const url = "https://x.example/gated/page";
      let settled = false;
      const parsed = pool.html(page, "text/html", url).finally(() => {
        settled = true;
      });
      await gate.started(url);
      expect(settled).toBe(false);
      gate.open(url);
      expect(await parsed).toEqual(await inlineParser.html(page, "text/html", url));
    } finally {
      pool.close();
      gate.close();
    }
  });

  test("failures come back typed; an overrunning job is cut and the worker replaced", async () => {
    // The job's time limit is run by hand: a job overruns when the test says so, never because
    // a loaded machine was slow (cold workers included).
    const overrun: (() => void)[] = [];
    const jobTimer = (onOverrun: () => void) => {
      overrun.push(onOverrun);
      return () => {};
    };
    const gate = parseGate();
    const pool = createParsePool({ size: 1, jobTimeoutMs: 800, workerUrl: GATED_WORKER, jobTimer });
    try {
      await pool.html(page, "text/html", "https://x.example/warm");
      const bad = await pool.pdf(new TextEncoder().encode("not a pdf"), "https://x.example/b.pdf").then(
        () => null,
        (e) => e,
      );
      expect(bad).toBeInstanceOf(FetchError);
      expect((bad as FetchError).reason).toBe("unsupported_type");
      const url = "https://x.example/gated/slow";
      const slow = pool.html(page, "text/html", url).then(
        () => null,
        (e) => e,
      );
      await gate.started(url);
      overrun.at(-1)!();
      expect((await slow) as FetchError).toMatchObject({
        reason: "timeout",
        message: "parsing took longer than 800 ms",
      });
      const after = await pool.html(page, "text/html", "https://x.example/a");
      expect(after.title).toBe("Base editing");
      expect(overrun).toHaveLength(4);
    } finally {
      pool.close();
      gate.close();
    }
  });

  test("the caller's abort ends its wait at once", async () => {
    const pool = createParsePool({ size: 1 });
    try {
      const ac = new AbortController();
      const big = new TextEncoder().encode(`<html><body>${"<p>x y z w v</p>".repeat(100_000)}</body></html>`);
      const p = pool.html(big, "text/html", "https://x.example/slow", ac.signal).then(
        () => null,
        (e) => e,
      );
      ac.abort();
      expect(((await p) as FetchError).reason).toBe("aborted");
    } finally {
      pool.close();
    }
  });

  test("workers that cannot start fall back to parsing inline", async () => {
    const pool = createParsePool({ size: 1, workerUrl: "/nonexistent/parse-worker.ts" }, inlineParser);
    try {
      const x = await pool.html(page, "text/html", "https://x.example/a");
      expect(x.text).toContain("Base editors convert");
    } finally {
      pool.close();
    }
  });
});
