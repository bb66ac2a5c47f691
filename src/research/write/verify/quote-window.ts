import { analyserFor } from "./analyse.ts";

/** A source's sentences as the claim check holds them (check-claim.ts's PreparedEvidence). */
interface Sentences {
  sentences: string[];
  language: string;
}

/** A sentence's words: where each starts and ends, and its terms as numbers into `vocab`. */
interface Words {
  at: Int32Array;
  end: Int32Array;
  /** Word w's terms are ids[from[w]] … ids[from[w + 1] - 1]. */
  from: Int32Array;
  ids: Int32Array;
  vocab: Map<string, number>;
}

// A sentence's words, analysed once for every claim quoted from it: a one-line page is one
// sentence of 150,000 characters, and analysing it again per citation is what made 500
// citations overrun their worker.
const analysed = new WeakMap<Sentences, Map<number, Words>>();

function wordsOf(ev: Sentences, index: number): Words {
  let bySentence = analysed.get(ev);
  if (!bySentence) {
    bySentence = new Map();
    analysed.set(ev, bySentence);
  }
  const known = bySentence.get(index);
  if (known) return known;
  const a = analyserFor(ev.language);
  const matches = [...ev.sentences[index]!.matchAll(/\S+/g)];
  const vocab = new Map<string, number>();
  const ids: number[] = [];
  const w: Words = {
    at: new Int32Array(matches.length),
    end: new Int32Array(matches.length),
    from: new Int32Array(matches.length + 1),
    ids: new Int32Array(0),
    vocab,
  };
  matches.forEach((m, i) => {
    w.at[i] = m.index;
    w.end[i] = m.index + m[0].length;
    w.from[i] = ids.length;
    for (const t of a.terms(m[0])) {
      let id = vocab.get(t);
      if (id === undefined) {
        id = vocab.size;
        vocab.set(t, id);
      }
      ids.push(id);
    }
  });
  w.from[matches.length] = ids.length;
  w.ids = Int32Array.from(ids);
  bySentence.set(index, w);
  return w;
}

/**
 * The stretch of whole words of sentence `index`, at most `max` characters, that holds the
 * most distinct terms of the claim (the first such stretch). One pass: the window's end only
 * moves forward, and a count per claim term says how many of its words the window holds.
 */
export function quoteWindow(ev: Sentences, index: number, claim: string, max: number): string {
  const sentence = ev.sentences[index]!;
  const w = wordsOf(ev, index);
  const n = w.at.length;
  // Per term of the sentence, which of the claim's terms it is (-1: none).
  const wanted = new Int32Array(w.vocab.size).fill(-1);
  let k = 0;
  for (const t of new Set(analyserFor(ev.language).terms(claim))) {
    const id = w.vocab.get(t);
    if (id !== undefined) wanted[id] = k++;
  }
  const count = new Int32Array(k);
  let distinct = 0;
  const add = (word: number, by: 1 | -1) => {
    for (let p = w.from[word]!; p < w.from[word + 1]!; p++) {
      const c = wanted[w.ids[p]!]!;
      if (c < 0) continue;
      count[c]! += by;
      if (by > 0 && count[c] === 1) distinct++;
      else if (by < 0 && count[c] === 0) distinct--;
    }
  };
  let best = { from: 0, to: 0, score: -1 };
  let j = 0;
  for (let i = 0; i < n; i++) {
    if (j < i) j = i;
    for (; j < n && w.end[j]! - w.at[i]! <= max; j++) add(j, 1);
    // A single "word" longer than the limit (a URL, a run of symbols) stands alone, and is cut below.
    const to = j > i ? w.end[j - 1]! : w.end[i]!;
    if (distinct > best.score) best = { from: w.at[i]!, to, score: distinct };
    if (j > i) add(i, -1);
  }
  return sentence.slice(best.from, best.to).slice(0, max);
}
