import type { Source, Verification } from "../../contract/envelope.ts";
import { SUPPORTED_AT } from "../../contract/support.ts";
import { answerClaims, plainText } from "../../research/write/verify/answer-claims.ts";
import { WITHHELD_LINE } from "./withhold-answer.ts";

const STAND_IN = plainText(WITHHELD_LINE);

/**
 * The claim check's counts (README "Claims you can check") of an earlier run's answer once
 * blocks of it are withheld: those of the claims left, as the run counted them. Threat: the
 * counts of the whole answer telling how many claims the withheld blocks made and how many of
 * them a private document backed. `answer` and `sources` are as withheld (the withheld
 * sources without evidence, the others with that of the claims left); `written` the answer
 * as the writer streamed it, withheld alike, which tells a claim the check uncited as
 * unsupported (it had a marker then) from one never cited — without it, the stored count
 * is kept as far as the uncited claims left allow. A claim is backed by an item whose verdict
 * is supported (by its support on runs checked before verdicts); `contradicted` and `recited`,
 * where the run counted them, are those of the items of the claims left.
 */
export function countsLeft(answer: string, sources: Source[], written: string | null, was: Verification): Verification {
  const claims = answerClaims(answer).filter((c) => c.text !== STAND_IN);
  const items = sources.flatMap((s) => s.evidence ?? []);
  const shown = new Set(claims.map((c) => c.text));
  // A contradicted item keeps its support but backs nothing: its marker was removed.
  const backed = new Set(
    items.filter((e) => (e.verdict ? e.verdict === "supported" : e.support >= SUPPORTED_AT)).map((e) => e.claim),
  );
  const contradicted = new Set(
    items.filter((e) => e.verdict === "contradicted" && shown.has(e.claim)).map((e) => e.claim),
  );
  const recited = items.filter((e) => e.recited && shown.has(e.claim)).length;
  const uncited = claims.filter((c) => !c.markers.length);
  let unsupported: number;
  if (written === null) unsupported = Math.min(was.unsupported, uncited.length);
  else {
    const citedThen = new Map<string, number>();
    for (const c of answerClaims(written))
      if (c.markers.length) citedThen.set(c.text, (citedThen.get(c.text) ?? 0) + 1);
    unsupported = 0;
    for (const c of uncited) {
      const n = citedThen.get(c.text) ?? 0;
      if (n) {
        citedThen.set(c.text, n - 1);
        unsupported++;
      }
    }
  }
  const supported = claims.filter((c) => backed.has(c.text)).length;
  const total = claims.length;
  return {
    claims: total,
    cited: total - uncited.length + unsupported,
    supported,
    unsupported,
    coverage: total ? Math.round((supported / total) * 100) / 100 : 0,
    ...(was.contradicted === undefined ? {} : { contradicted: contradicted.size }),
    ...(was.recited === undefined ? {} : { recited }),
  };
}
