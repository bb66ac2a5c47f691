import type { Verdict } from "../../../contract/envelope.ts";
import { REMOVE_BELOW } from "./check-claim.ts";

/**
 * Where a cited claim's marker goes once the claim has been judged against every source the
 * run read (docs/decisions/0159-a-marker-moved-never-added.md). The rule is shared by
 * verify-answer.ts and by the trainer that chose its thresholds
 * (docs/decisions/0160-the-re-citing-thresholds.md), so the figures measured are the rule shipped.
 */

/** What the check made of one claim against one of the run's sources. */
export interface Judged {
  verdict: Verdict;
  /** P(the source backs the claim), the learned model's. */
  supported: number;
  /** The claim stands word for word in the source: its marker is never moved. */
  verbatim: boolean;
  /** The lexical support (check-claim.ts): a source it is confident does not back the claim takes no marker. */
  lexical: number;
}

export interface ReciteThresholds {
  /** P(supported) a source needs before a marker may be moved to it. */
  reciteAt: number;
  /** How far above a kept citation's P(supported) another source must stand to take its marker. */
  reciteMargin: number;
}

/** The marker stays, is removed, or names source `to` (an index into the judged sources) instead. */
export type Move = { keep: true } | { keep: false; to: number | null };

const KEEP: Move = { keep: true };

/**
 * A marker that its source does not back (unsupported, contradicted) moves to the run's source
 * the model is most sure backs the claim, when that source's verdict is supported and its
 * P(supported) reaches `reciteAt`; a marker its source does back moves only when that other
 * source stands `reciteMargin` higher. A destination the claim already cites takes nothing
 * (the marker is removed: a claim never gains a second marker to one source); none clear
 * enough leaves a wrong marker removed and a backed one kept.
 */
export function reciteMove(all: Judged[], cited: number, claimCites: ReadonlySet<number>, t: ReciteThresholds): Move {
  const x = all[cited]!;
  const wrong = x.verdict === "unsupported" || x.verdict === "contradicted";
  // Word for word: the other sources were not read; only a second opinion's verdict can make it wrong.
  if (x.verbatim) return wrong ? { keep: false, to: null } : KEEP;
  let best = -1;
  all.forEach((j, i) => {
    // Moving a marker puts words in the writer's mouth: the lexical reading must not be sure the source fails (a figure it never states, docs/decisions/0182-a-marker-moves-only-where-both-readings-agree.md).
    if (i === cited || j.verdict !== "supported" || j.lexical < REMOVE_BELOW) return;
    if (best < 0 || j.supported > all[best]!.supported) best = i;
  });
  const b = all[best];
  const clear =
    b !== undefined && b.supported >= t.reciteAt && b.supported - x.supported >= (wrong ? 0 : t.reciteMargin);
  if (!clear) return wrong ? { keep: false, to: null } : KEEP;
  return { keep: false, to: claimCites.has(best) ? null : best };
}
