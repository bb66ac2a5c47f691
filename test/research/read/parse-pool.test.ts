import { describe, expect, test } from "bun:test";
import { inlineParser } from "../../../src/research/read/doc-parser.ts";
import { FetchError } from "../../../src/research/read/fetch-error.ts";
import { createParsePool } from "../../../src/research/read/parse-pool.ts";
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
    const pool = createParsePool({ size: 1 });
    try {
      const big = new TextEncoder().encode(
        `<html><body><article>${"<div><p>Paragraph text with enough words to count, again and again.</p></div>".repeat(10_000)}</article></body></html>`,
      );
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      await pool.html(big, "text/html", "https://x.example/big");
      clearInterval(timer);
      // Inline, a page this size holds the loop for its whole parse and the timer never fires.
      expect(ticks).toBeGreaterThan(3);
    } finally {
      pool.close();
    }
  });

  test("failures come back typed; an overrunning job is cut and the worker replaced", async () => {
    // The limit covers a cold worker's first job (the replacement's too): ~70 ms idle, several
    // hundred on a loaded 2-core machine; the big page's parse takes ~2 s.
    const pool = createParsePool({ size: 1, jobTimeoutMs: 800 });
    try {
      await pool.html(page, "text/html", "https://x.example/warm");
      const bad = await pool.pdf(new TextEncoder().encode("not a pdf"), "https://x.example/b.pdf").then(
        () => null,
        (e) => e,
      );
      expect(bad).toBeInstanceOf(FetchError);
      expect((bad as FetchError).reason).toBe("unsupported_type");
      const big = new TextEncoder().encode(`<html><body>${"<p>x y z w v</p>".repeat(300_000)}</body></html>`);
      const slow = await pool.html(big, "text/html", "https://x.example/slow").then(
        () => null,
        (e) => e,
      );
      expect((slow as FetchError).reason).toBe("timeout");
      const after = await pool.html(page, "text/html", "https://x.example/a");
      expect(after.title).toBe("Base editing");
    } finally {
      pool.close();
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
