import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkClaim, type PreparedEvidence, prepareEvidence } from "../../../src/research/write/verify/check-claim.ts";
import { candidateFeatures, claimFeatures } from "../../../src/research/write/verify/features.ts";

/**
 * The tuning data, read in place (../shared/data/, never copied), as feature rows: WiCE's dev
 * split, SciFact's train pairs and its train swap set. Nothing else is read: WiCE's test split
 * and SciFact's dev claims are how the check is judged (docs/decisions/0156-the-check-trained-byte-for-byte.md).
 */
export const DATA = join(import.meta.dir, "../../../../shared/data");
export const FILES = {
  wice: join(DATA, "wice/dev.jsonl.gz"),
  pairs: join(DATA, "scifact-claims/train.jsonl.gz"),
  swap: join(DATA, "scifact-claims/swap-train.jsonl.gz"),
};

export const haveData = () => Object.values(FILES).every((f) => existsSync(f));

export interface Row {
  /** The claim: every row of one claim falls in the same fold. */
  group: string;
  set: "wice" | "pairs" | "swap" | "numbers";
  /** wice: supported | partially_supported | not_supported; pairs: support | contradict | nei; swap: gold | wrong; numbers: changed. */
  label: string;
  x: Float64Array;
  /** The lexical check's support and quotes, for the figures beside the model's. */
  support: number;
  quotes: number[];
  /** Gold sentence sets (WiCE supporting, SciFact rationale sets), for retrieval figures. */
  gold: number[][];
  /** The swap claim's id, and the candidate's. */
  claim?: string;
  doc?: number;
}

function lines<T>(path: string): T[] {
  return new TextDecoder()
    .decode(Bun.gunzipSync(new Uint8Array(readFileSync(path))))
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

function checked(claim: string, ev: PreparedEvidence) {
  const c = checkClaim(claim, ev);
  return { x: claimFeatures(claim, ev, c), support: c.support, quotes: c.quotes };
}

/** A claim against each of the sources read with it (a swap's five, a claim's cited abstracts), as a run checks it. */
function checkedAll(claim: string, evs: PreparedEvidence[]) {
  const items = evs.map((ev) => ({ ev, check: checkClaim(claim, ev) }));
  const xs = candidateFeatures(claim, items);
  return items.map(({ check }, i) => ({
    x: xs[i]!,
    support: check.support,
    quotes: check.quotes,
  }));
}

const NUMBER = /\b\d+(?:\.\d+)?\b/g;

/**
 * A supported claim with one of its numbers changed, when its quote states that number: a claim
 * its source contradicts by a number. The tuning data holds almost none (SciFact's contradicting
 * claims were written by negating), so these teach what a changed figure looks like
 * (docs/decisions/0157-contradiction-cues-measured.md). A year moves by 3, a count by half again.
 */
function changedNumber(group: string, claim: string, ev: PreparedEvidence): Row | null {
  const c = checkClaim(claim, ev);
  const quote = c.quotes
    .slice(0, 2)
    .map((i) => ev.sentences[i])
    .join(" ");
  const n = [...claim.matchAll(NUMBER)].find((m) => new RegExp(`\\b${m[0].replace(".", "\\.")}\\b`).test(quote));
  if (!n) return null;
  const v = Number(n[0]);
  const to = /^(1[5-9]|20)\d\d$/.test(n[0]) ? v + 3 : v + Math.max(1, Math.round(v / 2));
  const changed = claim.slice(0, n.index) + String(to) + claim.slice(n.index! + n[0].length);
  return { group, set: "numbers", label: "changed", gold: [], ...checked(changed, ev) };
}

/** Every row, in the files' order: WiCE, then the pairs, then the swaps (each candidate in its order), then the changed numbers. */
export function loadRows(): Row[] {
  const rows: Row[] = [];
  const numbers: Row[] = [];
  for (const r of lines<{ id: string; claim: string; evidence: string[]; label: string; supporting: number[][] }>(
    FILES.wice,
  )) {
    const ev = prepareEvidence(r.evidence, "en");
    rows.push({
      group: `wice:${r.id}`,
      set: "wice",
      label: r.label,
      gold: r.supporting.filter((s) => s.length),
      ...checked(r.claim, ev),
    });
    const changed = r.label === "supported" ? changedNumber(`wice:${r.id}`, r.claim, ev) : null;
    if (changed) numbers.push(changed);
  }
  type Pair = { id: number; claim: string; sentences: string[]; label: string; rationale_sets: number[][] };
  const byClaim = new Map<number, Pair[]>();
  for (const r of lines<Pair>(FILES.pairs)) byClaim.set(r.id, [...(byClaim.get(r.id) ?? []), r]);
  for (const group of byClaim.values()) {
    const evs = group.map((r) => prepareEvidence(r.sentences, "en"));
    const all = checkedAll(group[0]!.claim, evs);
    group.forEach((r, k) => {
      rows.push({ group: `scifact:${r.id}`, set: "pairs", label: r.label, gold: r.rationale_sets, ...all[k]! });
      const changed = r.label === "support" ? changedNumber(`scifact:${r.id}`, r.claim, evs[k]!) : null;
      if (changed) numbers.push(changed);
    });
  }
  for (const r of lines<{
    id: number;
    claim: string;
    gold_doc: number;
    candidates: { doc_id: number; sentences: string[] }[];
  }>(FILES.swap)) {
    const all = checkedAll(
      r.claim,
      r.candidates.map((c) => prepareEvidence(c.sentences, "en")),
    );
    rows.push(
      ...r.candidates.map(
        (c, k): Row => ({
          group: `scifact:${r.id}`,
          set: "swap",
          label: c.doc_id === r.gold_doc ? "gold" : "wrong",
          gold: [],
          claim: String(r.id),
          doc: c.doc_id,
          ...all[k]!,
        }),
      ),
    );
  }
  rows.push(...numbers);
  return rows;
}

/** What each model learns: 1, 0, or null (the row says nothing about it). */
export const TARGETS = {
  supported: (r: Row): number | null =>
    r.set === "numbers"
      ? null
      : r.set === "wice"
        ? r.label === "supported"
          ? 1
          : 0
        : r.set === "pairs"
          ? r.label === "support"
            ? 1
            : 0
          : r.label === "gold"
            ? 1
            : 0,
  // WiCE's claims teach what an honest citation with no contradiction looks like; swaps are other topics, not contradictions.
  contradicted: (r: Row): number | null =>
    r.set === "swap" || r.set === "numbers" ? null : r.set === "pairs" && r.label === "contradict" ? 1 : 0,
  /** A figure the source states otherwise: the changed numbers against every honest citation. */
  figure: (r: Row): number | null =>
    r.set === "numbers" ? 1 : r.set === "swap" || (r.set === "pairs" && r.label === "contradict") ? null : 0,
};

export type ModelName = keyof typeof TARGETS;
export const MODEL_NAMES = Object.keys(TARGETS) as ModelName[];
