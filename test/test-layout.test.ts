import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { Glob } from "bun";

const ROOT = `${import.meta.dir}/..`;
const testFiles = [...new Glob("test/**/*.ts").scanSync(ROOT)];

describe("how tests build servers", () => {
  test("the real server is started only by the one builder (test/helpers/server.ts's startTestServer)", () => {
    // The bench drives its own servers and measures them; it is not a test.
    const builders = testFiles.filter(
      (f) =>
        f !== "test/helpers/server.ts" &&
        !f.startsWith("test/bench/") &&
        /\bstartServer\(/.test(readFileSync(`${ROOT}/${f}`, "utf8")),
    );
    expect(builders).toEqual([]);
  });
});

/** Test folders that hold no tests of src/: shared helpers, fixture servers and files, the benchmarks. */
const NOT_SRC = ["helpers", "fixtures", "bench"];

/** Every folder below test/ that holds a file, with the folders above it. */
function testFolders(files: string[]): string[] {
  const all = new Set<string>();
  for (const f of files)
    for (let d = dirname(f); d !== "test" && d !== "."; d = dirname(d)) all.add(d.slice("test/".length));
  return [...all].sort();
}

/** The folders of test/ that name no folder of src/ (test/ mirrors src/: docs/architecture.md "How it is tested"). */
function foldersOutsideSrc(files: string[], srcHas: (dir: string) => boolean): string[] {
  return testFolders(files).filter((d) => !NOT_SRC.includes(d.split("/")[0]!) && !srcHas(d));
}

describe("test/ mirrors src/", () => {
  const srcHas = (d: string) => existsSync(`${ROOT}/src/${d}`);
  test("every test folder (but helpers, fixtures, bench) names a folder of src/", () => {
    expect(foldersOutsideSrc(testFiles, srcHas)).toEqual([]);
  });

  test("a test in a folder src/ does not have is refused, at any depth", () => {
    const probe = ["test/billing/plans.test.ts", "test/runs/http/query.test.ts", "test/runs/remote/x.test.ts"];
    expect(foldersOutsideSrc(probe, srcHas)).toEqual(["billing", "runs/remote"]);
  });
});
