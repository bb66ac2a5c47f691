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
    const recs = Array.from({ length: 5_000 }, (_, i) => ({
      id: `p${i}`,
      title: `Paper ${i}`,
      text: `Paper ${i} measures how grid batteries age under daily cycling in hot climates. `.repeat(4),
    }));
    writeFileSync(file, gz(jsonl(recs)));
    // The meter's clock moves 1 ms each time it is read: reports are due by it, whatever
    // the machine's speed.
    let clock = 0;
    const now = () => (clock += 1);
    const seen: (ImportProgress & { at: number })[] = [];
    const { run } = importer();
    await run([file], { now, onProgress: (p) => seen.push({ ...p, at: clock }) });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ documents: 5_000, files: 1, filesTotal: 1, secondsLeft: 0, current: file });
    expect(last.rate).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThan(2);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.documents).toBeGreaterThanOrEqual(seen[i - 1]!.documents);
      // The final report comes whatever the time; the others are 250 ms apart.
      if (i < seen.length - 1) expect(seen[i]!.at - seen[i - 1]!.at).toBeGreaterThanOrEqual(250);
    }
    // Time left is estimated (from the bytes read) once a little of the file is in.
    const left = seen.slice(1, -1).map((p) => p.secondsLeft);
    expect(left.length).toBeGreaterThan(0);
    for (const s of left) expect(s !== null && Number.isFinite(s) && s >= 0).toBe(true);
  });
});
