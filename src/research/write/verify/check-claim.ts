import { splitSentences } from "../../../text/passages.ts";
import { analyserFor } from "./analyse.ts";
import { greedySet } from "./greedy-set.ts";
import { quoteWindow } from "./quote-window.ts";
import { focusCredits } from "./term-focus.ts";
import { languageAcross, languageOfText } from "./text-language.ts";
import { TUNING } from "./tuning.ts";

/**
 * The claim check (README "Claims you can check"): how well one source's text backs one
 * claim, and which of its sentences do, with no model. The runs, `research-query verify -`
 * and the WiCE bench all call this; nothing else scores support.
 *
 * Support is the share of the claim's weighted content that the best small set of sentences
 * covers: terms weighted by how rare they are in the source (a word the source never uses
 * weighs most), names and numbers weighing more, a number the set lacks sinking the score,
 * near forms (Sweden/Swedish) at part credit (docs/decisions/0106-the-claim-check.md).
 */

/** A source's text, split and analysed once, for every claim that cites it. */
export interface PreparedEvidence {
  sentences: string[];
  /** Per sentence, its distinct terms. */
  terms: Set<string>[];
  /** Per sentence, its terms in order (repeats kept): where they stand, for term-focus.ts. */
  sequences: string[][];
  /** Per sentence, its text normalised for the verbatim test. */
  flat: string[];
  /** The sentences each term occurs in, in order (its length is the term's document frequency). */
  postings: Map<string, number[]>;
  /** Terms by their first characters, for near forms. */
  prefixes: Map<string, string[]>;
  /** The language the claims are analysed in (the answer's). */
  language: string;
  /** The language most of the source's own words are in (script and function words), across the whole text. */
  sourceLanguage: string;
}

/** What one claim gets from one source. */
export interface ClaimCheck {
  /** Indices into `sentences`, best first (at most five). */
  quotes: number[];
  /** How many of the first quotes back the claim together (the rest are the next best alone). */
  together: number;
  /** How well the source backs the claim, in [0, 1]. */
  support: number;
  /**
   * False when the claim and the sentences it was judged on (the source as a whole when none
   * hold its terms) are in different languages or scripts: the score means nothing then, and
   * no marker may be removed on it.
   */
  comparable: boolean;
  /** The claim stands word for word in the source (reference marks aside): nothing to weigh. */
  verbatim?: true;
  /** A number of the claim the whole source never states. */
  numberAbsent?: true;
}

/** At or above this a citation counts as supported (the contract's, which the web app marks sentences with). */
export { SUPPORTED_AT } from "../../../contract/support.ts";
/**
 * The lexical score's removal threshold, for the lexical bench section and tests: runs remove on
 * the learned support (docs/decisions/0164-the-wires-support-is-the-learned-probability.md).
 */
export const REMOVE_BELOW = 0.15;

const MAX_QUOTES = 5;

/** Splits a source's text into sentences (verbatim, so quotes are the source's own words). */
export function evidenceSentences(text: string): string[] {
  return splitSentences(text);
}

// Reference marks ("[12]") and punctuation aside, for telling a sentence quoted word for word.
const flatten = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKC")
    .replace(/\[(?:\d+|[a-z]|citation needed)\]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

export function prepareEvidence(sentences: string[], language = "en"): PreparedEvidence {
  const a = analyserFor(language);
  const sequences = sentences.map((s) => a.terms(s));
  const terms = sequences.map((s) => new Set(s));
  const postings = new Map<string, number[]>();
  terms.forEach((ts, i) => {
    for (const t of ts) {
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  });
  const prefixes = new Map<string, string[]>();
  for (const t of postings.keys()) {
    if (t.length < TUNING.prefix || t.startsWith("#")) continue;
    const k = t.slice(0, TUNING.prefix);
    const list = prefixes.get(k);
    if (list) list.push(t);
    else prefixes.set(k, [t]);
  }
  return {
    sentences,
    terms,
    sequences,
    flat: sentences.map(flatten),
    postings,
    prefixes,
    language,
    sourceLanguage: languageAcross(sentences),
  };
}

/** A term of the claim: its weights and the source's terms that count for it. */
interface Want {
  /** For choosing sentences. */
  weight: number;
  /** For the support score: names count more there. */
  sweight: number;
  number: boolean;
  matches: [term: string, credit: number][];
}

/** A claim term's weight among `n` sentences, `df` of which hold it: rarer weighs more, never under 0.1. */
export const termWeight = (n: number, df: number) => Math.max(Math.log((n + 1) / (df + 0.5)), 0.1);

function wanted(claim: string, ev: PreparedEvidence): Want[] {
  const n = ev.sentences.length;
  const names = new Map<string, boolean>();
  for (const t of analyserFor(ev.language).tokens(claim)) names.set(t.term, (names.get(t.term) ?? false) || t.name);
  const out: Want[] = [];
  for (const [term, name] of names) {
    const number = term.startsWith("#");
    const df = ev.postings.get(term)?.length ?? 0;
    const matches: [string, number][] = df ? [[term, 1]] : [];
    if (!number && term.length >= TUNING.prefix)
      for (const near of ev.prefixes.get(term.slice(0, TUNING.prefix)) ?? [])
        if (near !== term) matches.push([near, TUNING.near]);
    const weight = termWeight(n, df) * (number ? TUNING.numberWeight : 1);
    out.push({ weight, sweight: weight * (name ? TUNING.name : 1), number, matches });
  }
  return out;
}

/**
 * The sentences holding any of the claim's terms (the others give it nothing), each with its
 * credit for each wanted term from where they stand together (term-focus.ts).
 */
function credits(want: Want[], ev: PreparedEvidence): { ids: number[]; c: Float64Array[] } {
  const at = new Set<number>();
  for (const w of want) for (const [t] of w.matches) for (const i of ev.postings.get(t) ?? []) at.add(i);
  return focusCredits(
    want,
    ev.sequences,
    [...at].sort((a, b) => a - b),
  );
}

export function checkClaim(claim: string, ev: PreparedEvidence, _o: { context?: string } = {}): ClaimCheck {
  // Threat: a page opening with another language's text hid its own sentences from judgement;
  // the sentences the claim is judged on tell, the whole source only when none holds its terms.
  const whole = ev.language === ev.sourceLanguage;
  const on = (idx: number[]) => languageOfText(idx.map((i) => ev.sentences[i]).join(" ")) === ev.language;
  if (!ev.sentences.length) return { quotes: [], together: 0, support: 0, comparable: whole };
  const exact = verbatim(claim, ev);
  const want = wanted(claim, ev);
  if (!want.length)
    return exact >= 0
      ? { quotes: [exact], together: 1, support: 1, comparable: on([exact]), verbatim: true }
      : { quotes: [], together: 0, support: 0, comparable: whole };
  const { ids, c } = credits(want, ev);
  if (!ids.length && exact < 0) return { quotes: [], together: 0, support: 0, comparable: whole };
  if (exact >= 0 && !ids.includes(exact)) {
    ids.push(exact);
    c.push(new Float64Array(want.length));
  }
  const pick = greedySet(
    want.map((w) => w.weight),
    c,
    ids.indexOf(exact),
    ids,
  );
  const quotes = [...pick.set, ...pick.order.filter((i) => !pick.set.includes(i))]
    .slice(0, MAX_QUOTES)
    .map((k) => ids[k]!);
  const together = exact >= 0 ? 1 : pick.set.length;
  if (exact >= 0) return { quotes, together: 1, support: 1, comparable: on([exact]), verbatim: true };
  // The support is judged on the set that best covers the names too, which may differ from the quotes'.
  const sw = want.map((w) => w.sweight);
  const judged = greedySet(sw, c, -1, ids);
  const total = sw.reduce((a, b) => a + b, 0);
  let cover = sw.reduce((s, w, j) => s + w * judged.covered[j]!, 0) / total;
  cover *= TUNING.setDecay ** (judged.set.length - 1);
  // A number the source never states sinks the claim; one stated elsewhere in it only weakens it.
  let support = cover;
  const numberAbsent = want.some((w) => w.number && !w.matches.length);
  if (numberAbsent) support *= TUNING.numberAbsent;
  else if (want.some((w, j) => w.number && judged.covered[j]! < 1)) support *= TUNING.numberMiss;
  const comparable = on(judged.set.map((k) => ids[k]!));
  const check: ClaimCheck = { quotes, together, support: Math.min(1, Math.max(0, support)), comparable };
  if (numberAbsent) check.numberAbsent = true;
  return check;
}

/** The index of a sentence that holds the claim word for word (reference marks aside), or -1. */
function verbatim(claim: string, ev: PreparedEvidence): number {
  const f = flatten(claim);
  if (f.length < 12) return -1;
  return ev.flat.findIndex((s) => s.includes(f));
}

/**
 * The verbatim quote for a check, at most QUOTE_MAX characters: its best sentence, with the
 * next best when that is its neighbour and both fit; of a longer sentence, the stretch
 * (whole words) holding most of the claim's terms. Always the source's own words in their
 * order, so a reader can find it on the page (README "Claims you can check").
 */
export function quoteOf(ev: PreparedEvidence, check: ClaimCheck, claim = ""): string {
  const [a, b] = check.quotes;
  if (a === undefined) return "";
  const first = ev.sentences[a]!;
  if (b !== undefined && check.together >= 2 && Math.abs(a - b) === 1) {
    const both = a < b ? `${first} ${ev.sentences[b]}` : `${ev.sentences[b]} ${first}`;
    if (both.length <= QUOTE_MAX) return both;
  }
  return first.length <= QUOTE_MAX ? first : quoteWindow(ev, a, claim, QUOTE_MAX);
}

export const QUOTE_MAX = 400;
