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

  test("memory past the limit: the PDF job under way longest is stopped as too_large, its worker's other job retried, the rest untouched", async () => {
    // The process's memory and the watchdog's checks are the test's: growth happens when it says so.
    let rss = 100 * 1048576;
    const ticks = new Set<() => void>();
    const memoryTicker = (tick: () => void) => {
      ticks.add(tick);
      return () => ticks.delete(tick);
    };
    const check = () => {
      for (const t of [...ticks]) t();
    };
    const gate = parseGate();
    const pool = createParsePool({
      size: 2,
      workerUrl: GATED_WORKER,
      memoryLimit: 1048576,
      rss: () => rss,
      memoryTicker,
    });
    const settled = <T>(p: Promise<T>) =>
      p.then(
        (v) => ({ v }),
        (e: FetchError) => ({ e }),
      );
    try {
      const pdf = tinyPdf(["Alpha line"], "T");
      // Least busy first: a and c on one worker, the PDF b and the page d on the other.
      const url = (n: string) => `https://x.example/gated/${n}`;
      const a = settled(pool.html(page, "text/html", url("a")));
      const b = settled(pool.pdf(pdf, url("b.pdf")));
      const c = settled(pool.html(page, "text/html", url("c")));
      const d = settled(pool.html(page, "text/html", url("d")));
      for (const n of ["a", "b.pdf", "c", "d"]) await gate.started(url(n));
      check();
      // One check for the pool, however many jobs it holds.
      expect(ticks.size).toBe(1);
      rss += 2 * 1048576;
      // The page a, older, trips the watch first; the PDF b is the one stopped.
      const again = parseGate();
      check();
      expect(await b).toMatchObject({
        e: { reason: "too_large", message: "reading it took more than 1 MiB of memory (a PDF bomb?)" },
      });
      // Growth counts from the stop now: the others are not stopped at the next check.
      check();
      await again.started(url("d"));
      for (const n of ["a", "c"]) gate.open(url(n));
      again.open(url("d"));
      for (const r of await Promise.all([a, c, d])) expect("v" in r && r.v.title).toBe("Base editing");
      again.close();
      // The stopped worker was replaced: PDFs parse again.
      expect((await pool.pdf(pdf, "https://x.example/e.pdf")).text).toContain("Alpha line");
    } finally {
      pool.close();
      gate.close();
    }
  });
});
