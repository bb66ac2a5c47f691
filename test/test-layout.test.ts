import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
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
