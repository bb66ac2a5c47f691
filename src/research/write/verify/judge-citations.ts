import type { Verdict } from "../../../contract/envelope.ts";
import { neutraliseMarkers } from "../markers.ts";
import type { AnswerClaim } from "./answer-claims.ts";
import {
  type ClaimCheck,
  checkClaim,
  evidenceSentences,
  type PreparedEvidence,
  prepareEvidence,
  quoteOf,
} from "./check-claim.ts";
import { type Judgement, judgeAll, THRESHOLDS, verdictOf } from "./learned-check.ts";
import { type Judged, reciteMove } from "./recite.ts";

/**
 * The claims of one answer the check reads at most; the rest keep their markers, unchecked. A
 * claim costs up to one pass over each of the run's sources' longest sentence, and a model can
 * write hundreds of one-line claims citing every source
 * (docs/decisions/0116-the-claim-check-never-redone-here.md).
 */
const MAX_CHECKED_CLAIMS = 100;

/** One claim's citation of one source: what the check found, and what became of its marker. */
export interface Citation {
  claim: number;
  /** The source's id as in the answer checked. */
  id: string;
  check: ClaimCheck;
  /** What the learned models made of this claim against this source. */
  judgement: Judgement;
  quote: string;
  verdict: Verdict;
  /** The marker stays, is removed, or names `to` instead (README "Claims you can check"). */
  fate: "kept" | "removed" | "moved";
  to?: string;
  /** This citation is the one a moved marker now makes: the claim against the source it was moved to. */
  recited?: true;
}

/**
 * Every cited claim judged against every source the run read (`ids`, their texts in `texts`),
 * each citation with its verdict and its marker's fate: kept, removed, or moved to the source
 * of the run that backs the claim (recite.ts). A moved marker adds the citation it now makes,
 * `recited`, right after the one it left. A claim without a marker is not judged: a marker is
 * never added. `overrides` (keyed "<claim index>:<source id>", a second opinion's) replace the
 * check's verdict of a cited source before its marker's fate is decided; one that keeps a
 * marker keeps it where it is.
 */
export function judgeCitations(
  claims: AnswerClaim[],
  ids: string[],
  texts: ReadonlyMap<string, string>,
  language: string,
  overrides: ReadonlyMap<string, Verdict> = new Map(),
): Citation[] {
  const prepared = new Map<string, PreparedEvidence>();
  const evidenceOf = (id: string) => {
    let p = prepared.get(id);
    if (!p) {
      p = prepareEvidence(evidenceSentences(neutraliseMarkers(texts.get(id) ?? "")), language);
      prepared.set(id, p);
    }
    return p;
  };
  const citations: Citation[] = [];
  claims.slice(0, MAX_CHECKED_CLAIMS).forEach((c, i) => {
    const cited = [...new Set(c.markers.map((m) => m.id))].filter((id) => ids.includes(id));
    if (!cited.length) return;
    const context = claims
      .slice(Math.max(0, i - 2), i)
      .map((x) => x.text)
      .join(" ");
    const checks = new Map<string, ClaimCheck>();
    const checkOf = (id: string) => {
      let k = checks.get(id);
      if (!k) {
        k = checkClaim(c.text, evidenceOf(id), { context });
        checks.set(id, k);
      }
      return k;
    };
    // A claim quoted word for word from its source is settled there: no other source can take its marker.
    const settled = cited.every((id) => checkOf(id).verbatim);
    const against = settled ? cited : ids;
    const items = against.map((id) => ({ ev: evidenceOf(id), check: checkOf(id) }));
    const judgements = judgeAll(c.text, items);
    const judged: Judged[] = items.map((it, k) => ({
      verdict: verdictOf(it.check, judgements[k]!, THRESHOLDS.removeBelow),
      supported: judgements[k]!.supported,
      verbatim: it.check.verbatim === true,
      lexical: it.check.support,
    }));
    // A verdict given that keeps the marker pins it: a second opinion outweighs another source's lexical lead.
    const pinned = new Set<string>();
    for (const id of cited) {
      const v = overrides.get(`${i}:${id}`);
      if (v) judged[against.indexOf(id)]!.verdict = v;
      if (v === "supported" || v === "partial") pinned.add(id);
    }
    const citing = new Set(cited.map((id) => against.indexOf(id)));
    for (const id of cited) {
      const k = against.indexOf(id);
      const it = items[k]!;
      const move = pinned.has(id) ? ({ keep: true } as const) : reciteMove(judged, k, citing, THRESHOLDS);
      const here: Citation = {
        claim: i,
        id,
        check: it.check,
        judgement: judgements[k]!,
        quote: quoteOf(it.ev, it.check, c.text),
        verdict: judged[k]!.verdict,
        fate: move.keep ? "kept" : move.to === null ? "removed" : "moved",
      };
      citations.push(here);
      if (move.keep || move.to === null) continue;
      const to = items[move.to]!;
      here.to = against[move.to]!;
      citing.add(move.to);
      citations.push({
        claim: i,
        id: here.to,
        check: to.check,
        judgement: judgements[move.to]!,
        quote: quoteOf(to.ev, to.check, c.text),
        verdict: judged[move.to]!.verdict,
        fate: "kept",
        recited: true,
      });
    }
  });
  return citations;
}
