import { stemmer as da } from "@orama/stemmers/danish";
import { stemmer as nl } from "@orama/stemmers/dutch";
import { stemmer as en } from "@orama/stemmers/english";
import { stemmer as fi } from "@orama/stemmers/finnish";
import { stemmer as fr } from "@orama/stemmers/french";
import { stemmer as de } from "@orama/stemmers/german";
import { stemmer as it } from "@orama/stemmers/italian";
import { stemmer as no } from "@orama/stemmers/norwegian";
import { stemmer as pt } from "@orama/stemmers/portuguese";
import { stemmer as ru } from "@orama/stemmers/russian";
import { stemmer as es } from "@orama/stemmers/spanish";
import { stemmer as sv } from "@orama/stemmers/swedish";
import { stemmer as tr } from "@orama/stemmers/turkish";
import { stopwords as daStop } from "@orama/stopwords/danish";
import { stopwords as nlStop } from "@orama/stopwords/dutch";
import { stopwords as enStop } from "@orama/stopwords/english";
import { stopwords as fiStop } from "@orama/stopwords/finnish";
import { stopwords as frStop } from "@orama/stopwords/french";
import { stopwords as deStop } from "@orama/stopwords/german";
import { stopwords as itStop } from "@orama/stopwords/italian";
import { stopwords as noStop } from "@orama/stopwords/norwegian";
import { stopwords as ptStop } from "@orama/stopwords/portuguese";
import { stopwords as ruStop } from "@orama/stopwords/russian";
import { stopwords as esStop } from "@orama/stopwords/spanish";
import { stopwords as svStop } from "@orama/stopwords/swedish";
import { stopwords as trStop } from "@orama/stopwords/turkish";

/**
 * Words as the claim check compares them: lower-cased, stop words out, Snowball stems for the
 * languages that have one, numbers normalised, and CJK / Thai runs as character bigrams (no
 * spaces to split on; a bigram is the unit most words there are built from).
 */

const LANGS: Record<string, [(w: string) => string, readonly string[]]> = {
  en: [en, enStop],
  de: [de, deStop],
  fr: [fr, frStop],
  es: [es, esStop],
  it: [it, itStop],
  pt: [pt, ptStop],
  nl: [nl, nlStop],
  ru: [ru, ruStop],
  sv: [sv, svStop],
  da: [da, daStop],
  no: [no, noStop],
  fi: [fi, fiStop],
  tr: [tr, trStop],
};

export interface Analyser {
  /** Content terms of a text, in order (repeats kept). */
  terms(text: string): string[];
  /** The same, each with whether it was written capitalised after the text's first word (a name). */
  tokens(text: string): { term: string; name: boolean }[];
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, controls included
const ASCII = /^[\x00-\x7f]*$/;
const YEAR_SPAN = /\b(\d{2})(\d{2})\s*[–-]\s*(\d{2})\b/g;
const isUpper = (w: string) => {
  const c = w.charCodeAt(0);
  return c < 128 ? c >= 65 && c <= 90 : /^\p{Lu}/u.test(w);
};
const DENSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
// A number with its grouping and decimals ("1,000.5", "3.5", "1.000,5"), or a word.
const TOKEN = /\p{N}+(?:[.,]\p{N}+)*|[\p{L}\p{M}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** "1,000" and "1000" and "1.000" (a German thousand) are one number; "3.5" and "3,5" too. */
export function normaliseNumber(raw: string): string {
  const n = raw.replace(/[’']/g, "");
  // Groups of exactly three digits after a separator are thousands; otherwise the last separator is the decimal point.
  if (/^\p{N}{1,3}(?:[.,]\p{N}{3})+$/u.test(n)) return `#${n.replace(/[.,]/g, "")}`;
  return `#${n.replace(",", ".")}`;
}

/**
 * English number words read as the numbers they are, so "two years" meets "2 years" and a source
 * that says "a decade" does not back "two years" (docs/decisions/0181-number-words-are-numbers.md).
 * "one" is left a word: it is a pronoun more often than a count.
 */
const UNITS = ["two", "three", "four", "five", "six", "seven", "eight", "nine"];
const NUMBER_WORDS = new Map<string, number>([
  ...UNITS.map((w, i) => [w, i + 2] as const),
  ...["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"].map(
    (w, i) => [w, i + 10] as const,
  ),
  ...["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"].map(
    (w, i) => [w, (i + 2) * 10] as const,
  ),
  ["dozen", 12],
]);
/** "twenty-five" after a tens word: the unit it adds. */
const TENS_UNIT = /^[-‐ ](one|two|three|four|five|six|seven|eight|nine)\b/i;

const built = new Map<string, Analyser>();

export function analyserFor(language: string): Analyser {
  let a = built.get(language);
  if (!a) {
    a = makeAnalyser(language);
    built.set(language, a);
  }
  return a;
}

function makeAnalyser(language: string): Analyser {
  const [stem, stopList] = LANGS[language] ?? LANGS.en!;
  // English stop words always go too: answers in any language quote English names and titles.
  const stop = new Set([...stopList, ...enStop]);
  const cache = new Map<string, string>();
  const stemOf = (w: string) => {
    let s = cache.get(w);
    if (s === undefined) {
      s = w.length > 3 ? stem(w) : w;
      if (cache.size > 50_000) cache.clear();
      cache.set(w, s);
    }
    return s;
  };
  // One pass for both: `names` null skips telling names (the sources' many sentences don't need it).
  const scan = (text: string, out: string[], names: boolean[] | null) => {
    // "2018–19" is 2018 to 2019: spelled out, so a source writing "2019" backs it.
    const spelled = (ASCII.test(text) ? text : text.normalize("NFKC")).replace(YEAR_SPAN, "$1$2–$1$3");
    const dense = DENSE.test(spelled);
    let first = true;
    // Where a tens word's unit was read with it ("twenty-five"): that token is not read again.
    let skip = -1;
    for (const m of spelled.matchAll(TOKEN)) {
      const raw = m[0];
      const c = raw.charCodeAt(0);
      const name = names !== null && !first && isUpper(raw);
      first = false;
      if (c >= 48 && c <= 57 ? true : c > 127 && /^\p{N}/u.test(raw)) {
        out.push(normaliseNumber(raw));
        names?.push(false);
        continue;
      }
      if (dense && DENSE.test(raw)) {
        const from = out.length;
        denseTerms(raw, out);
        for (let k = from; k < out.length; k++) names?.push(false);
        continue;
      }
      let w = raw.toLowerCase();
      if (skip === m.index) continue;
      const n = NUMBER_WORDS.get(w);
      if (n !== undefined) {
        const unit = n >= 20 && n % 10 === 0 ? TENS_UNIT.exec(spelled.slice(m.index + raw.length)) : null;
        if (unit) skip = m.index + raw.length + 1;
        out.push(`#${n + (unit ? ["one", ...UNITS].indexOf(unit[1]!.toLowerCase()) + 1 : 0)}`);
        names?.push(false);
        continue;
      }
      if (w.includes("'") || w.includes("’")) w = w.replace(/['’]s$/, "").replace(/['’]/g, "");
      if (w.length < 2 || stop.has(w)) continue;
      out.push(stemOf(w));
      names?.push(name);
    }
  };
  const tokens = (text: string) => {
    const out: string[] = [];
    const names: boolean[] = [];
    scan(text, out, names);
    return out.map((term, i) => ({ term, name: names[i]! }));
  };
  const terms = (text: string) => {
    const out: string[] = [];
    scan(text, out, null);
    return out;
  };
  return { tokens, terms };
}

/** A run of CJK or Thai: its Latin/number parts as words, each dense stretch as bigrams (a lone character as itself). */
function denseTerms(raw: string, out: string[]): void {
  for (const part of raw.match(
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]+/gu,
  ) ?? []) {
    if (!DENSE.test(part)) {
      out.push(/^\p{N}/u.test(part) ? normaliseNumber(part) : part);
      continue;
    }
    const chars = [...part];
    if (chars.length === 1) out.push(part);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
}
