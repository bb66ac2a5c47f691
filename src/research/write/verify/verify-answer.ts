import type { Evidence, Verdict, Verification } from "../../../contract/envelope.ts";
import type { Source } from "../../types.ts";
import { finalizeCitations } from "../citations.ts";
import { answerClaims } from "./answer-claims.ts";
import { judgeCitations } from "./judge-citations.ts";
import { backing } from "./learned-check.ts";
import { leastSure, type Unsure } from "./unsure.ts";

/** What the check made of an answer: the answer without unsupported markers, its sources with their evidence. */
export interface Verified<S extends Source> {
  answer: string;
  sources: (S & { evidence: Evidence[] })[];
  verification: Verification;
  /** The cited pairs whose verdict the check is least sure of (unsure.ts), for a second opinion. */
  unsure: Unsure[];
}

/**
 * Checks every citation of a finished answer (after finalizeCitations) against the text the
 * run read of every source it gave the writer (README "Claims you can check"). A marker whose
 * source the check is confident does not back its claim (its support under the trainer's
 * removal threshold, same language) or whose quote says otherwise (learned-check.ts) is taken out, or moved to the
 * run's source that clearly backs the sentence (recite.ts); the sentence stays. Sources are
 * renumbered as finalizeCitations does: an uncited one drops out unless a marker moved to it,
 * or a quote of it contradicts a claim (it then follows the cited ones, so the reader sees what
 * it says); each keeps the claims citing it with the quote and the verdict.
 * `sources` are every source the run read, those `answer` cites first; `texts` each one's read
 * text by its id in `answer`; `overrides` verdicts that replace the check's (judge-citations.ts).
 */
export function verifyAnswer<S extends Source>(
  answer: string,
  sources: S[],
  texts: ReadonlyMap<string, string>,
  language: string,
  overrides: ReadonlyMap<string, Verdict> = new Map(),
): Verified<S> {
  const claims = answerClaims(answer);
  const ids = sources.map((s) => s.id).filter((id) => texts.has(id));
  const citations = judgeCitations(claims, ids, texts, language, overrides);
  const original = citations.filter((x) => !x.recited);
  const edits = new Map(
    original.filter((x) => x.fate !== "kept").map((x) => [`${x.claim}:${x.id}`, x.to ? `[${x.to}]` : "[S0]"]),
  );
  // Every marker of a citation that went is rewritten (a claim may repeat one): "[S0]" names no source, so finalizeCitations cuts it and tidies.
  let cut = answer;
  const spans = claims
    .flatMap((c, i) =>
      c.markers.flatMap((m) => (edits.has(`${i}:${m.id}`) ? [{ ...m, to: edits.get(`${i}:${m.id}`)! }] : [])),
    )
    .sort((a, b) => b.at - a.at);
  for (const m of spans) cut = `${cut.slice(0, m.at)}${m.to}${cut.slice(m.at + m.length)}`;
  const final = finalizeCitations(cut, sources, sources.length);
  const renumber = new Map(final.was.map((old, i) => [old, `S${i + 1}`]));
  // A source left uncited but contradicting a claim stays, after the cited ones: its quote is what a reader needs.
  const saying = sources.filter(
    (s) => !renumber.has(s.id) && original.some((x) => x.id === s.id && x.verdict === "contradicted"),
  );
  for (const s of saying) renumber.set(s.id, `S${renumber.size + 1}`);
  // A contradicted citation is listed wherever its marker went; any other is listed only where a marker stands.
  const listed = citations.filter((x) => x.verdict === "contradicted" || x.fate === "kept");
  const evidence = new Map<string, Evidence[]>();
  for (const x of listed) {
    const id = renumber.get(x.id);
    if (!id) continue;
    const list = evidence.get(id) ?? [];
    list.push({
      claim: claims[x.claim]!.text,
      quote: x.quote,
      support: Math.round(backing(x.judgement) * 1000) / 1000,
      verdict: x.verdict,
      ...(x.recited ? { recited: true } : {}),
    });
    evidence.set(id, list);
  }
  const standing = citations.filter((x) => x.fate === "kept");
  const checked = new Set(original.map((x) => x.claim));
  const stillCited = new Set(standing.map((x) => x.claim));
  const supported = new Set(standing.filter((x) => x.verdict === "supported").map((x) => x.claim));
  const contradicted = new Set(original.filter((x) => x.verdict === "contradicted").map((x) => x.claim));
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
      recited: citations.filter((x) => x.recited).length,
    },
    unsure: leastSure(
      original.map((x) => ({ ...x, key: `${x.claim}:${x.id}`, source: x.id, claim: claims[x.claim]!.text })),
    ),
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
  /** Verdicts that replace the check's own, keyed "<claim index>:<source id as in answer>" (a second opinion's). */
  overrides?: [string, Verdict][];
}

/** verifyAnswer over a VerifyInput: the same code on a worker and on this thread. */
export function verifyInput(i: VerifyInput): Verified<Source> {
  return verifyAnswer(i.answer, i.sources, new Map(i.texts), i.language, new Map(i.overrides ?? []));
}
