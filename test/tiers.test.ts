import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The fast tier (`bun run test:fast`) is every test file not named `*.e2e.test.ts`, with
 * RQ_TEST_TIER=fast so the PostgreSQL tests skip (test/helpers/postgres.ts). It is chosen by
 * name, so a file that starts a browser, builds the binary, installs the OpenAPI tools or runs
 * the product as a process (each start a second or more on a loaded machine) must say so in
 * its name, or the fast tier would silently grow slow.
 */
const ROOT = join(import.meta.dir, "..");
const HEAVY: [RegExp, string][] = [
  [/from "(\.\/|\.\.\/web\/)browser\.ts"|from "playwright-core"/, "a browser"],
  [/src\/build\/build\.ts/, "the compiled binary"],
  [/helpers\/openapi-tools\.ts"/, "the OpenAPI tools"],
  [/run-cli\.ts"|mcp-client\.ts"|spawnLeased\(|Bun\.spawn\(/, "the product as a process (CLI, serve, mcp)"],
];

const files = [...new Bun.Glob("test/**/*.test.ts").scanSync(ROOT)].sort();
const SELF = "test/tiers.test.ts"; // its patterns would match themselves

describe("test tiers", () => {
  test("the scan finds the suite, e2e files included", () => {
    expect(files).toContain(SELF);
    expect(files.filter((f) => f.endsWith(".e2e.test.ts")).length).toBeGreaterThan(5);
  });

  test("every file that starts a browser, the binary, the OpenAPI tools or the product's process is *.e2e.test.ts", () => {
    const misplaced = files.flatMap((f) => {
      if (f === SELF) return [];
      const text = readFileSync(join(ROOT, f), "utf8");
      return HEAVY.filter(([re]) => re.test(text) && !f.endsWith(".e2e.test.ts")).map(([, what]) => `${f}: ${what}`);
    });
    expect(misplaced).toEqual([]);
  });
});
