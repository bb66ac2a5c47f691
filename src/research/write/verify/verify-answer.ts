import type { Evidence, Verdict, Verification } from "../../../contract/envelope.ts";
import type { Source } from "../../types.ts";
import { finalizeCitations } from "../citations.ts";
import { neutraliseMarkers } from "../markers.ts";
import { answerClaims } from "./answer-claims.ts";
import {
  type ClaimCheck,
  checkClaim,
  evidenceSentences,
  type PreparedEvidence,
  prepareEvidence,
  quoteOf,
} from "./check-claim.ts";
import { backing, judge, THRESHOLDS, verdictOf } from "./learned-check.ts";

/** What the check made of an answer: the answer without unsupported markers, its sources with their evidence. */
export interface Verified<S extends Source> {
  answer: string;
  sources: (S & { evidence: Evidence[] })[];
  verification: Verification;
}

/**
 * The claims of one answer the check reads at most; the rest keep their markers, unchecked. A
 * claim costs up to one pass over each cited source's longest sentence, and a model can write
 * hundreds of one-line claims citing every source
 * (docs/decisions/0116-the-claim-check-never-redone-here.md).
 */
const MAX_CHECKED_CLAIMS = 100;

interface Citation {
  claim: number;
  id: string;
  at: number;
  length: number;
  check: ClaimCheck;
  /** The wire's support (learned-check.ts `backing`). */
  support: number;
  quote: string;
  verdict: Verdict;
}

/**
 * Checks every citation of a finished answer (after finalizeCitations) against the text the
 * run read of its source (README "Claims you can check"). A marker whose source the check is
 * confident does not back its claim (support under the trainer's removal threshold, same language) or whose quote
 * says otherwise (learned-check.ts) is taken out; the sentence stays. Sources are renumbered
 * as finalizeCitations does, an uncited one drops out unless a quote of it contradicts a
 * claim (it then follows the cited ones, so the reader sees what it says), and each keeps the
 * claims citing it with the quote and the verdict.
 * `texts` is each source's read text by its id in `answer`.
 */
export function verifyAnswer<S extends Source>(
  answer: string,
  sources: S[],
  texts: ReadonlyMap<string, string>,
  language: string,
): Verified<S> {
  const claims = answerClaims(answer);
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
    const context = claims
      .slice(Math.max(0, i - 2), i)
      .map((x) => x.text)
      .join(" ");
    const seen = new Set<string>();
    for (const m of c.markers) {
      if (seen.has(m.id) || !texts.has(m.id)) continue;
      seen.add(m.id);
      const ev = evidenceOf(m.id);
      const check = checkClaim(c.text, ev, { context });
      const j = judge(c.text, ev, check);
      const verdict = verdictOf(check, j, THRESHOLDS.removeBelow);
      citations.push({
        claim: i,
        id: m.id,
        at: m.at,
        length: m.length,
        check,
        support: backing(j),
        quote: quoteOf(ev, check, c.text),
        verdict,
      });
    }
  });
  const removed = citations.filter((x) => x.verdict === "unsupported" || x.verdict === "contradicted");
  const dropped = new Set(removed.map((x) => `${x.claim}:${x.id}`));
  // Every marker of a dropped citation goes (a claim may repeat one); "[S0]" names no source, so finalizeCitations cuts it and tidies.
  let cut = answer;
  const spans = claims
    .flatMap((c, i) => c.markers.filter((m) => dropped.has(`${i}:${m.id}`)))
    .sort((a, b) => b.at - a.at);
  for (const m of spans) cut = `${cut.slice(0, m.at)}[S0]${cut.slice(m.at + m.length)}`;
  const final = finalizeCitations(cut, sources, sources.length);
  const renumber = new Map(final.was.map((old, i) => [old, `S${i + 1}`]));
  // A source left uncited but contradicting a claim stays, after the cited ones: its quote is what a reader needs.
  const saying = sources.filter(
    (s) => !renumber.has(s.id) && citations.some((x) => x.id === s.id && x.verdict === "contradicted"),
  );
  for (const s of saying) renumber.set(s.id, `S${renumber.size + 1}`);
  const listed = citations.filter((x) => x.verdict !== "unsupported");
  const evidence = new Map<string, Evidence[]>();
  for (const x of listed) {
    const id = renumber.get(x.id);
    if (!id) continue;
    const list = evidence.get(id) ?? [];
    list.push({
      claim: claims[x.claim]!.text,
      quote: x.quote,
      support: Math.round(x.support * 1000) / 1000,
      verdict: x.verdict,
    });
    evidence.set(id, list);
  }
  const checked = new Set(citations.map((x) => x.claim));
  const stillCited = new Set(citations.filter((x) => !dropped.has(`${x.claim}:${x.id}`)).map((x) => x.claim));
  const supported = new Set(citations.filter((x) => x.verdict === "supported").map((x) => x.claim));
  const contradicted = new Set(citations.filter((x) => x.verdict === "contradicted").map((x) => x.claim));
  const unsupported = [...checked].filter((i) => !stillCited.has(i)).length;
  // Taking markers out leaves the sentences as they were: the claims are counted as written.
  const total = claims.length;
  const kept = [...final.sources, ...saying.map((s) => ({ ...s, id: renumber.get(s.id)! }))];
  return {
    answer: final.answer,
    sources: kept.map((s) => ({ ...s, evidence: evidence.get(s.id) ?? [] })),
    verification: {
      claims: total,
      cited: claims.filter((c) => c.markers.length).length,
      supported: supported.size,
      unsupported,
      coverage: total ? Math.round((supported.size / total) * 100) / 100 : 0,
      contradicted: contradicted.size,
      recited: 0,
    },
  };
}

/**
 * One answer to verify as it crosses to a parse worker (docs/decisions/0109-verification-off-the-server-thread.md):
 * plain data only, each source's read text by its id in `answer`.
 */
export interface VerifyInput {
  answer: string;
  sources: Source[];
  texts: [string, string][];
  language: string;
}

/** verifyAnswer over a VerifyInput: the same code on a worker and on this thread. */
export function verifyInput(i: VerifyInput): Verified<Source> {
  return verifyAnswer(i.answer, i.sources, new Map(i.texts), i.language);
}
