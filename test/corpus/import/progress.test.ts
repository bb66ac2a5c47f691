import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ImportProgress } from "../../../src/corpus/import/import-types.ts";
import { useLongTimeout } from "../../setup.ts";
import { gz, importer, jsonl, tempDir } from "./import-fixtures.ts";

useLongTimeout();

describe("import progress", () => {
  test("a long JSONL import reports documents, rate and time left, at most four times a second", async () => {
    const file = join(tempDir(), "many.jsonl.gz");
    const recs = Array.from({ length: 8000 }, (_, i) => ({
      id: `p${i}`,
      title: `Paper ${i}`,
      text: `Paper ${i} measures how grid batteries age under daily cycling in hot climates. `.repeat(4),
    }));
    writeFileSync(file, gz(jsonl(recs)));
    const seen: (ImportProgress & { at: number })[] = [];
    const { run } = importer();
    await run([file], { onProgress: (p) => seen.push({ ...p, at: performance.now() }) });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ documents: 8000, files: 1, filesTotal: 1, secondsLeft: 0, current: file });
    expect(last.rate).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThan(1);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.documents).toBeGreaterThanOrEqual(seen[i - 1]!.documents);
      // The final report comes whatever the time; the others are 250 ms apart.
      if (i < seen.length - 1) expect(seen[i]!.at - seen[i - 1]!.at).toBeGreaterThanOrEqual(249);
    }
    // Time left, estimated from the bytes read, shrinks as the file is read.
    const left = seen.slice(0, -1).flatMap((p) => (p.secondsLeft === null ? [] : [p.secondsLeft]));
    expect(left.length).toBeGreaterThan(0);
    expect(left.at(-1)!).toBeLessThanOrEqual(left[0]!);
  });
});
