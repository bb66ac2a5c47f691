import { readFileSync } from "node:fs";
import { checkClaim, prepareEvidence, quoteOf } from "../../../src/research/write/verify/check-claim.ts";
import { backing, judge, THRESHOLDS, verdictOf } from "../../../src/research/write/verify/learned-check.ts";
import { type Judged, leastSure } from "../../../src/research/write/verify/unsure.ts";
import { FILES } from "../check-model/data.ts";

/**
 * Bench 17's citations: WiCE dev's claims and SciFact train's pairs (tuning data only, read in
 * place), each judged by the check as a run judges it, grouped in runs whose least sure
 * citations are the ones a run would ask about.
 */

/** Citations of one run: 5 sources, a 300-word answer of ~15 cited sentences. */
export const RUN = 15;

export interface Item {
  set: "wice" | "pairs";
  label: string;
  claim: string;
  text: string;
  judged: Judged;
  /** The check's own score: the wire's support (learned-check.ts `backing`). */
  p: number;
  /** Chosen to be asked (the run's least sure). */
  asked?: boolean;
  /** The model's answer: true Yes, false No, null failed, undefined not asked. */
  yes?: boolean | null;
}

function lines<T>(path: string): T[] {
  const text = new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(readFileSync(path))));
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

function item(set: Item["set"], key: string, label: string, claim: string, sentences: string[]): Item {
  const ev = prepareEvidence(sentences, "en");
  const check = checkClaim(claim, ev);
  const judgement = judge(claim, ev, check);
  const verdict = verdictOf(check, judgement, THRESHOLDS.removeBelow);
  const quote = quoteOf(ev, check, claim);
  const judged = { key: `${key}:S1`, source: "S1", claim, quote, verdict, check, judgement };
  return { set, label, claim, text: sentences.join(" "), judged, p: backing(judgement) };
}

export function loadItems(limit: number): Item[] {
  const wice = lines<{ id: string; claim: string; evidence: string[]; label: string }>(FILES.wice).map((r, i) =>
    item("wice", `w${i}`, r.label, r.claim, r.evidence),
  );
  const pairs = lines<{ id: number; doc_id: number; claim: string; sentences: string[]; label: string }>(
    FILES.pairs,
  ).map((r, i) => item("pairs", `p${i}`, r.label, r.claim, r.sentences));
  return [...wice.slice(0, limit), ...pairs.slice(0, limit)];
}

/** Marks each run's least sure citations as asked, as verifyAnswer would choose them. */
export function choose(items: Item[]): Item[][] {
  const runs: Item[][] = [];
  for (let i = 0; i < items.length; i += RUN) runs.push(items.slice(i, i + RUN));
  for (const run of runs) {
    const byKey = new Map(run.map((x) => [x.judged.key, x]));
    for (const u of leastSure(run.map((x) => x.judged))) byKey.get(u.key)!.asked = true;
  }
  return runs;
}
