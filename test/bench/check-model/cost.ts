import { answerClaims } from "../../../src/research/write/verify/answer-claims.ts";
import { checkClaim, evidenceSentences, prepareEvidence } from "../../../src/research/write/verify/check-claim.ts";
import { judgeAll, THRESHOLDS, verdictOf } from "../../../src/research/write/verify/learned-check.ts";
import type { wiceRows } from "../claims.ts";

type Claim = Awaited<ReturnType<typeof wiceRows>>[number];

/**
 * What checking every claim of a run against every source it read costs (what re-citing a marker
 * needs): five WiCE articles of 60 to 200 sentences as the sources, 300 words of WiCE claims as
 * the answer, each claim checked against all five, judged together (judgeAll) and given a verdict.
 * Sources are split and analysed inside each round, as verifyAnswer does.
 */
export function everySourceCost(rows: Claim[]): string {
  const sources = rows.filter((r) => r.evidence.length >= 60 && r.evidence.length <= 200).slice(0, 5);
  const texts = sources.map((r) => r.evidence.join(" "));
  const parts: string[] = [];
  let words = 0;
  for (let i = 0; words < 300; i++) {
    const claim = rows[i % rows.length]!.claim;
    parts.push(`${claim.replace(/[.!?]$/, "")} [S${(i % 5) + 1}].`);
    words += claim.split(/\s+/).length;
  }
  const answer = parts.join(" ");
  const times: number[] = [];
  let pairs = 0;
  let removed = 0;
  for (let round = 0; round < 130; round++) {
    const t0 = performance.now();
    const evs = texts.map((t) => prepareEvidence(evidenceSentences(t), "en"));
    pairs = 0;
    for (const c of answerClaims(answer)) {
      const items = evs.map((ev) => ({ ev, check: checkClaim(c.text, ev) }));
      const verdicts = judgeAll(c.text, items).map((j, k) => verdictOf(items[k]!.check, j, THRESHOLDS.removeBelow));
      removed += verdicts.filter((v) => v === "unsupported").length;
      pairs += items.length;
    }
    if (round >= 30) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  void removed;
  return `| every claim against every source: 5 sources split and analysed, ${pairs} (claim, source) pairs checked and judged together (judgeAll), verdicts | ${q(0.5)} ms | ${q(0.95)} ms | ${times[times.length - 1]!.toFixed(1)} ms |`;
}
