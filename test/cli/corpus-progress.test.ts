import { describe, expect, test } from "bun:test";
import { progressPrinter } from "../../src/cli/corpus-add.ts";
import type { ImportProgress } from "../../src/corpus/import/import-types.ts";

const at = (documents: number): ImportProgress => ({
  documents,
  files: 0,
  filesTotal: 1,
  rate: 100,
  secondsLeft: 90,
  current: "big.jsonl",
});

/** A printer on a clock moved by hand, writing to a log (no terminal) or to a terminal's status line. */
function printer(terminal: boolean) {
  let now = 5_000;
  const logged: string[] = [];
  const statuses: string[] = [];
  const print = progressPrinter(
    () => now,
    (line) => {
      if (terminal) statuses.push(line);
      return terminal;
    },
    (line) => logged.push(line),
  );
  return { print, logged, statuses, advance: (ms: number) => (now += ms) };
}

describe("corpus add progress on stderr", () => {
  test("to a log: nothing in the first second (a quick import logs only its summary), then a line a second", () => {
    const p = printer(false);
    p.print(at(10));
    p.advance(999);
    p.print(at(20));
    expect(p.logged).toEqual([]);
    p.advance(1);
    p.print(at(30));
    expect(p.logged).toEqual(["[import] 30 documents · 100/s · 1 min 30 s left · big.jsonl\n"]);
    p.advance(999);
    p.print(at(40));
    expect(p.logged).toHaveLength(1);
    p.advance(1);
    p.print(at(50));
    expect(p.logged.at(-1)).toBe("[import] 50 documents · 100/s · 1 min 30 s left · big.jsonl\n");
    expect(p.statuses).toEqual([]);
  });

  test("on a terminal: every report rewrites the status line and nothing is logged", () => {
    const p = printer(true);
    p.print(at(10));
    p.advance(2_000);
    p.print(at(20));
    expect(p.statuses).toEqual([
      "[import] 10 documents · 100/s · 1 min 30 s left · big.jsonl",
      "[import] 20 documents · 100/s · 1 min 30 s left · big.jsonl",
    ]);
    expect(p.logged).toEqual([]);
  });
});
