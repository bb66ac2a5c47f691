import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { FEATURE_NAMES } from "../../../../src/research/write/verify/features.ts";
import { haveData } from "../../../bench/check-model/data.ts";
import { train, WEIGHTS } from "../../../bench/check-model/train.ts";
import { useLongTimeout } from "../../../setup.ts";

useLongTimeout();

// The shipped weights are what the trainer writes from the tuning data, to the byte
// (docs/decisions/0156-the-check-trained-byte-for-byte.md). The whole training takes a few
// seconds (ten on a loaded 2-core machine: the full tier's, hence the name), so the whole is
// redone, not a slice of it.
test.skipIf(!haveData())("re-running the trainer reproduces weights.json byte for byte", () => {
  expect(train().json).toBe(readFileSync(WEIGHTS, "utf8"));
});

test("every weight names a feature, and every threshold is a probability", () => {
  const w = JSON.parse(readFileSync(WEIGHTS, "utf8"));
  expect(w.features).toEqual([...FEATURE_NAMES]);
  for (const m of ["supported", "contradicted", "figure"])
    for (const name of Object.keys(w[m].weights)) expect(FEATURE_NAMES as readonly string[]).toContain(name);
  for (const t of Object.values(w.thresholds) as number[]) expect(t > 0 && t < 1).toBe(true);
});
