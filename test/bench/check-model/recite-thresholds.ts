import { type ReciteThresholds, reciteMove } from "../../../src/research/write/verify/recite.ts";
import type { ReciteRun } from "./recite-pairs.ts";

/**
 * The re-citing rule's two thresholds, chosen on the tuning runs of recite-pairs.ts
 * (docs/decisions/0160-the-re-citing-thresholds.md): of the grid's pairs at which honest markers
 * (the swaps' right abstracts, WiCE's claims on their own evidence) are moved away no more
 * often than MOVED_AWAY_AT_MOST, the one that takes the most wrong markers off a source that does
 * not back their claim (removed or moved); ties to the higher thresholds.
 */
export const MOVED_AWAY_AT_MOST = 0.02;
const GRID = Array.from({ length: 19 }, (_, i) => (i + 1) / 20);
const MARGINS = Array.from({ length: 20 }, (_, i) => i / 20);

/** What became of the markers, as shares of the citations of each kind. */
export interface ReciteFigures {
  /** The swaps' wrong abstracts cited: marker removed / moved to the right abstract / moved to another wrong one / kept. */
  wrong: { removed: number; toRight: number; elsewhere: number; kept: number; n: number };
  /** The swaps' right abstracts cited: kept / removed / moved away. */
  right: { kept: number; removed: number; away: number; n: number };
  /** WiCE dev claims cited to their own evidence (all, and the supported ones): moved away. */
  wice: { removed: number; away: number; n: number; awaySupported: number };
}

export function reciteFigures(runs: ReciteRun[], t: ReciteThresholds): ReciteFigures {
  const w = { removed: 0, toRight: 0, elsewhere: 0, kept: 0, n: 0 };
  const r = { kept: 0, removed: 0, away: 0, n: 0 };
  const v = { removed: 0, away: 0, n: 0, awaySupported: 0 };
  let supported = 0;
  for (const run of runs) {
    const cites = run.set === "swap" ? run.judged.map((_, i) => i) : [run.right];
    for (const c of cites) {
      const m = reciteMove(run.judged, c, new Set([c]), t);
      const fate = m.keep ? "kept" : m.to === null ? "removed" : m.to === run.right ? "toRight" : "elsewhere";
      if (run.set === "wice") {
        v.n++;
        if (fate === "removed") v.removed++;
        if (fate === "elsewhere") v.away++;
        if (run.label === "supported") {
          supported++;
          if (fate === "elsewhere") v.awaySupported++;
        }
      } else if (c !== run.right) {
        w.n++;
        w[fate]++;
      } else {
        r.n++;
        if (fate === "kept") r.kept++;
        else if (fate === "removed") r.removed++;
        else r.away++;
      }
    }
  }
  const share = <T extends Record<string, number>>(o: T, n: number) =>
    Object.fromEntries(Object.entries(o).map(([k, x]) => [k, k === "n" ? x : x / (n || 1)])) as T;
  return {
    wrong: share(w, w.n),
    right: share(r, r.n),
    wice: {
      ...share({ removed: v.removed, away: v.away, n: v.n }, v.n),
      awaySupported: v.awaySupported / (supported || 1),
    },
  };
}

/** The thresholds the rule is shipped with: chosen on `runs` as the header says. */
export function chooseRecite(runs: ReciteRun[]): ReciteThresholds {
  let best: ReciteThresholds = { reciteAt: 1, reciteMargin: 1 };
  let score = -1;
  for (const reciteAt of GRID)
    for (const reciteMargin of MARGINS) {
      const f = reciteFigures(runs, { reciteAt, reciteMargin });
      if (f.right.away > MOVED_AWAY_AT_MOST || f.wice.away > MOVED_AWAY_AT_MOST) continue;
      const s = f.wrong.removed + f.wrong.toRight + f.wrong.elsewhere;
      if (s >= score) [score, best] = [s, { reciteAt, reciteMargin }];
    }
  return best;
}

/** Each fold's runs measured at the thresholds chosen on the other folds: the figures a claim never tuned on would see. */
export function crossValidatedRecite(runs: ReciteRun[]): { figures: ReciteFigures; chosen: ReciteThresholds[] } {
  const chosen: ReciteThresholds[] = [];
  const held: { run: ReciteRun; t: ReciteThresholds }[] = [];
  for (let f = 0; f < 5; f++) {
    const t = chooseRecite(runs.filter((r) => r.fold !== f));
    chosen.push(t);
    for (const run of runs.filter((r) => r.fold === f)) held.push({ run, t });
  }
  // Each held-out run with its fold's thresholds; the counts are summed over the folds.
  const per = held.map(({ run, t }) => reciteFigures([run], t));
  const sum = (pick: (x: ReciteFigures) => { n: number }, key: string) =>
    per.reduce((s, x) => s + (pick(x) as any)[key] * pick(x).n, 0) / (per.reduce((s, x) => s + pick(x).n, 0) || 1);
  const n = (pick: (x: ReciteFigures) => { n: number }) => per.reduce((s, x) => s + pick(x).n, 0);
  return {
    chosen,
    figures: {
      wrong: {
        removed: sum((x) => x.wrong, "removed"),
        toRight: sum((x) => x.wrong, "toRight"),
        elsewhere: sum((x) => x.wrong, "elsewhere"),
        kept: sum((x) => x.wrong, "kept"),
        n: n((x) => x.wrong),
      },
      right: {
        kept: sum((x) => x.right, "kept"),
        removed: sum((x) => x.right, "removed"),
        away: sum((x) => x.right, "away"),
        n: n((x) => x.right),
      },
      wice: {
        removed: sum((x) => x.wice, "removed"),
        away: sum((x) => x.wice, "away"),
        n: n((x) => x.wice),
        awaySupported: Number.NaN,
      },
    },
  };
}
