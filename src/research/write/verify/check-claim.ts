import { splitSentences } from "../../../text/passages.ts";
import { terms } from "../../rank/tokenize.ts";

/**
 * The claim check (README "Claims you can check"): how well one source's text backs one
 * claim, and which of its sentences do, with no model. The runs, `research-query verify -`
 * and the WiCE bench all call this; nothing else scores support.
 *
 * FIRST CUT, to be replaced by the tuned scorer: content-term coverage of the claim by its
 * best sentence, with numbers required.
 */

/** A source's text, split and analysed once, for every claim that cites it. */
export interface PreparedEvidence {
  sentences: string[];
  /** Per sentence, its terms (as the scorer analyses them). */
  terms: string[][];
}

/** What one claim gets from one source. */
export interface ClaimCheck {
  /** Indices into `sentences`, best first (at most a handful). */
  quotes: number[];
  /** How well the source backs the claim, in [0, 1]. */
  support: number;
  /**
   * False when the claim and the source share too little language to judge (another
   * language or script): the score means nothing then, and no marker may be removed on it.
   */
  comparable: boolean;
}

/** At or above this a citation counts as supported. */
export const SUPPORTED_AT = 0.6;
/** Below this the verifier is confident the source does not back the claim: its marker goes. */
export const REMOVE_BELOW = 0.25;

/** Splits a source's text into sentences (verbatim, so quotes are the source's own words). */
export function evidenceSentences(text: string): string[] {
  return splitSentences(text);
}

export function prepareEvidence(sentences: string[], _language = "en"): PreparedEvidence {
  return { sentences, terms: sentences.map((s) => terms(s)) };
}

const NUMBER = /\d+(?:[.,]\d+)*/g;

export function checkClaim(claim: string, ev: PreparedEvidence, _o: { language?: string } = {}): ClaimCheck {
  const want = [...new Set(terms(claim))];
  if (!want.length || !ev.sentences.length) return { quotes: [], support: 0, comparable: false };
  const numbers = claim.match(NUMBER) ?? [];
  const scored = ev.terms.map((ts, i) => {
    const have = new Set(ts);
    const cover = want.filter((t) => have.has(t)).length / want.length;
    const missing = numbers.filter((n) => !ev.sentences[i]!.includes(n)).length;
    return { i, score: missing ? cover * 0.3 : cover };
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  const vocab = new Set(ev.terms.flat());
  const comparable = want.filter((t) => vocab.has(t)).length / want.length >= 0.2 || want.length < 3;
  return { quotes: scored.slice(0, 3).map((s) => s.i), support: scored[0]!.score, comparable };
}

/** The verbatim quote for a check: its best sentence, and the next best when adjacent and short enough (≤ 400 chars). */
export function quoteOf(ev: PreparedEvidence, check: ClaimCheck): string {
  const [a, b] = check.quotes;
  if (a === undefined) return "";
  const first = ev.sentences[a]!;
  if (b !== undefined && Math.abs(a - b) === 1) {
    const both = a < b ? `${first} ${ev.sentences[b]}` : `${ev.sentences[b]} ${first}`;
    if (both.length <= 400) return both;
  }
  return first.length <= 400 ? first : `${first.slice(0, 399)}…`;
}
