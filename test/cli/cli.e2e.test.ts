import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configKeys } from "../../src/config/load.ts";
import { ARTICLE_PARAGRAPHS } from "../fixtures/page-server.ts";
import { processLog } from "../helpers/process-log.ts";
import { useLongTimeout } from "../setup.ts";
import { cli, MAIN, useCliFixtures } from "./run-cli.ts";

useLongTimeout();

const fx = useCliFixtures();

describe("CLI", () => {
  test("--help lists every command and every configuration variable with defaults", async () => {
    const { out, code } = await cli(["--help"]);
    expect(code).toBe(0);
    for (const c of [
      "serve",
      "ask",
      "extract",
      "account create",
      "account set-plan",
      "key create",
      "key list",
      "key revoke",
      "mcp",
    ])
      expect(out).toContain(c);
    for (const k of configKeys) expect(out).toContain(k);
    expect(out).toContain("(default: 3000)");
  });

  test("a bad value stops the start with a message naming the variable", async () => {
    for (const [k, v] of [
      ["PORT", "eighty"],
      ["DEFAULT_PLAN", "gold"],
      ["RUN_TIMEOUT_MS", "-5"],
      ["ACADEMIC_PROVIDERS", "openalex,google"],
      ["SEARXNG_URL", "ftp://x"],
      // Fractions and exponents were truncated into a working value before.
      ["PLAN_RUNS_FREE", "2.5"],
      ["RUN_TIMEOUT_MS", "1500.7"],
      ["PORT", "3000.9"],
      ["PORT", "1e3"],
      ["FETCH_ALLOW_PRIVATE", "yes"],
    ]) {
      const { err, code } = await cli(["serve"], { [k!]: v! });
      expect(code, k).toBe(1);
      expect(err, k).toContain(`invalid ${k}="${v}"`);
    }
  });

  test("a bad secret is named but never printed", async () => {
    const v = "tooshort-zq9";
    const { err, code } = await cli(["serve"], { SESSION_SECRET: v });
    expect(code).toBe(1);
    expect(err).toContain(`invalid SESSION_SECRET=(hidden, ${v.length} characters)`);
    expect(err).not.toContain(v);
  });

  test(".env in the working directory is read; the environment wins over it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-env-"));
    writeFileSync(join(dir, ".env"), "DEFAULT_PLAN=platinum\n");
    expect((await cli(["serve"], {}, undefined, dir)).err).toContain("invalid DEFAULT_PLAN");
    const { code } = await cli(
      ["account", "create", "x@example.com"],
      { DEFAULT_PLAN: "pro", RQ_PASSWORD: "long enough pw", DATABASE_PATH: join(dir, "db.sqlite") },
      undefined,
      dir,
    );
    expect(code).toBe(0);
  });

  test("account create / set-plan and key create against one database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-acc-"));
    const env = { DATABASE_PATH: join(dir, "rq.db"), RQ_PASSWORD: "a long password" };
    const a = await cli(["account", "create", "Ops@Example.com", "--plan", "researcher"], env);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.out)).toMatchObject({ email: "ops@example.com", plan: "researcher" });
    expect(a.out).not.toContain("a long password");
    const p = await cli(["account", "set-plan", "ops@example.com", "pro"], env);
    expect(JSON.parse(p.out).plan).toBe("pro");
    const k = await cli(["key", "create", "ops@example.com", "--name", "server"], env);
    expect(k.out.trim()).toMatch(/^rq-[A-Za-z0-9_-]{32}$/);
    expect((await cli(["key", "create", "nobody@example.com"], env)).code).toBe(1);
    expect((await cli(["account", "create", "short@example.com"], { ...env, RQ_PASSWORD: "short" })).code).toBe(1);
  });

  test("extract prints the main text of a file, of stdin and of a URL", async () => {
    const html = `<html><head><title>T</title></head><body><nav><a href="/">Home</a></nav><article>${ARTICLE_PARAGRAPHS.map((p) => `<p>${p}</p>`).join("")}</article><footer>Copyright</footer></body></html>`;
    const dir = mkdtempSync(join(tmpdir(), "rq-ex-"));
    writeFileSync(join(dir, "page.html"), html);
    const f = await cli(["extract", join(dir, "page.html")]);
    expect(f.out).toContain(ARTICLE_PARAGRAPHS[1]!);
    expect(f.out).not.toContain("Copyright");
    expect((await cli(["extract", "-"], {}, html)).out).toContain(ARTICLE_PARAGRAPHS[2]!);
    const u = await cli(["extract", fx.pages.url("/article/review"), "--json"], { FETCH_ALLOW_PRIVATE: "true" });
    expect(JSON.parse(u.out).title).toBe("Base editing: a review");
    expect((await cli(["extract", fx.pages.url("/article/review")])).code).toBe(1);
  });

  test("ask --json runs the engine against the fixtures and prints the envelope; plain ask prints answer and sources", async () => {
    const env = { SEARXNG_URL: fx.search.urls.searxng, ACADEMIC_PROVIDERS: "none", FETCH_ALLOW_PRIVATE: "true" };
    const j = await cli(["ask", "How do base editors avoid double-strand breaks?", "--json"], env);
    expect(j.code).toBe(0);
    const envl = JSON.parse(j.out);
    expect(envl).toMatchObject({ status: "ok", writer: "extractive" });
    expect(envl.sources.length).toBeGreaterThan(0);
    // Claims you can check: the envelope carries the evidence and the check's counts.
    expect(envl.verification.claims).toBeGreaterThan(0);
    const quotes = envl.sources.flatMap((s: any) => s.evidence);
    expect(quotes.length).toBeGreaterThan(0);
    expect(j.err).toContain("[searching]");
    expect(j.err).toContain("[verifying]");
    const plain = await cli(["ask", "How do base editors avoid double-strand breaks?"], env);
    expect(plain.out).toContain("Sources:");
    expect(plain.out).toMatch(/\[S1\] .+\n\s+http/);
    for (const e of quotes) expect(plain.out).toContain(`> "${e.quote}"`);
    // Nothing can search (no web provider, no database, no collection): what to configure, no run.
    const failed = await cli(["ask", "anything"], { ACADEMIC_PROVIDERS: "none" });
    expect(failed.code).toBe(1);
    expect(failed.err).toContain("search_unavailable: nothing can search");
    for (const fix of ["SEARXNG_URL", "BRAVE_API_KEY", "TAVILY_API_KEY", "corpus add"])
      expect(failed.err).toContain(fix);
    expect(failed.err).not.toContain("[searching]");
  });

  test("ask's stdout is its answer: with LOG_LEVEL=debug the log lines go to stderr", async () => {
    const env = { SEARXNG_URL: fx.search.urls.searxng, ACADEMIC_PROVIDERS: "none", FETCH_ALLOW_PRIVATE: "true" };
    const j = await cli(["ask", "How do base editors avoid double-strand breaks?", "--json"], {
      ...env,
      LOG_LEVEL: "debug",
    });
    expect(j.code).toBe(0);
    expect(JSON.parse(j.out)).toMatchObject({ status: "ok" });
    expect(j.err).toContain('"msg":"engine"');
  });

  test("ask - reads the question from standard input; a question is never read from stdin without the -", async () => {
    const env = { SEARXNG_URL: fx.search.urls.searxng, ACADEMIC_PROVIDERS: "none", FETCH_ALLOW_PRIVATE: "true" };
    const j = await cli(["ask", "-", "--json"], env, "How do base editors work in zebrafish embryos?\n");
    expect(j.code).toBe(0);
    expect(JSON.parse(j.out)).toMatchObject({ status: "ok", writer: "extractive" });
    const asked = fx.search.requests.filter((r) => r.provider === "searxng").map((r) => r.url.searchParams.get("q"));
    expect(asked.some((q) => q?.includes("zebrafish"))).toBe(true);
    const empty = await cli(["ask", "-"], env, " \n");
    expect(empty.code).toBe(2);
    expect(empty.err).toContain("no question on standard input");
    const piped = await cli(["ask"], env, "How do base editors work?\n");
    expect(piped.code).toBe(2);
    expect(piped.err).toContain("missing QUESTION");
  });

  test("serve starts, answers /healthz, and exits cleanly on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-serve-"));
    const port = 10000 + Math.floor(Math.random() * 20000);
    const p = Bun.spawn(["bun", MAIN, "serve"], {
      cwd: dir,
      env: { PATH: process.env.PATH!, PORT: String(port) },
      stdout: "pipe",
      stderr: "pipe",
    });
    const log = processLog(p.stdout);
    await log.until('"msg":"listening"');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    p.kill("SIGTERM");
    expect(await p.exited).toBe(0);
    const logs = await log.rest();
    expect(logs).toContain('"msg":"stopped"');
  });
});
