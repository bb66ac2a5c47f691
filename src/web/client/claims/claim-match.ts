/**
 * Which quote backs which citation: the evidence a run recorded on its sources matched to
 * the sentences of the rendered answer by the claim's text and the source's id
 * (docs/decisions/0108-evidence-in-the-web-app.md).
 */

import type { Evidence } from "../../../contract/envelope.ts";

export type { Evidence, Verification } from "../../../contract/envelope.ts";

/**
 * Support at which a citation counts as backed: the contract's (src/contract/support.ts),
 * copied because the browser bundle takes types only from the contract;
 * test/web/client/claims/claim-match.test.ts holds the two equal.
 */
export const SUPPORTED_AT = 0.45;

/** A contradicted item stays on its source for what it says, and backs nothing, whatever its support. */
export const isBacked = (e: Evidence | null | undefined): boolean =>
  !!e && e.verdict !== "contradicted" && e.support >= SUPPORTED_AT;

/**
 * A claim's text reduced to its letters and digits, lower-cased: the same whether it is read
 * from the Markdown (emphasis, links, markers, the space a removed marker left) or from the
 * verifier's plain claim.
 */
export function claimKey(text: string): string {
  return text
    .replace(/\[S\d+\]/g, "")
    .replace(/\[([^\]\n]+)\]\([^)\s]+\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

/** A sentence that makes a claim: some words, not a lead-in to what follows ("Here is what the sources say:"). */
export function isClaim(text: string): boolean {
  const plain = text.replace(/\[S\d+\]/g, "").trim();
  return claimKey(plain).length > 0 && !/[:：]$/.test(plain);
}

/** Letters and digits a sentence or claim needs before it is matched as part of the other. */
const MIN_PART = 16;

interface Keyed {
  key: string;
  evidence: Evidence;
}

/** Every source's evidence, keyed by its claim, by source id. */
export type EvidenceIndex = Map<string, Keyed[]>;

export function indexEvidence(sources: { id: string; evidence?: Evidence[] }[]): EvidenceIndex {
  return new Map(
    sources.map((s) => [s.id, (s.evidence ?? []).map((evidence) => ({ key: claimKey(evidence.claim), evidence }))]),
  );
}

/**
 * The evidence for one marker: the source's entry for this very claim; else, where the
 * verifier cut the answer into sentences differently from the browser, the longest entry whose
 * claim holds or is held by this sentence. Null when the source has none for it.
 */
export function evidenceFor(index: EvidenceIndex, sourceId: string, sentence: string): Evidence | null {
  const key = claimKey(sentence);
  if (!key) return null;
  const entries = index.get(sourceId) ?? [];
  const exact = entries.find((e) => e.key === key);
  if (exact) return exact.evidence;
  let best: Keyed | null = null;
  for (const e of entries) {
    // A short piece ("Yes.") is held by too many claims to say which.
    if (Math.min(e.key.length, key.length) < MIN_PART) continue;
    if ((key.includes(e.key) || e.key.includes(key)) && (!best || e.key.length > best.key.length)) best = e;
  }
  return best?.evidence ?? null;
}
