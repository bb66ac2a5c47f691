// A deterministic synthetic collection for the size table of test/bench/corpus.ts.
const VOCAB = 50_000;

/** mulberry32: a small seeded generator, so every run builds the same documents. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Word i is drawn with probability ∝ 1/(i+1) (Zipf, s = 1): cumulative weights, searched by bisection.
const cumulative = (() => {
  const c = new Float64Array(VOCAB);
  let s = 0;
  for (let i = 0; i < VOCAB; i++) c[i] = s += 1 / (i + 1);
  return c;
})();

function zipf(r: () => number): number {
  const x = r() * cumulative[VOCAB - 1]!;
  let lo = 0;
  let hi = VOCAB - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Pronounceable, distinct words (no stemming collisions to speak of): base-20 syllables. */
function word(i: number): string {
  const syl = [
    "ka",
    "lo",
    "mi",
    "nu",
    "pe",
    "ra",
    "si",
    "to",
    "vu",
    "ze",
    "ba",
    "de",
    "fi",
    "go",
    "hu",
    "je",
    "ko",
    "ly",
    "ma",
    "no",
  ];
  let s = "";
  let n = i + 20;
  while (n > 0) {
    s += syl[n % 20];
    n = Math.floor(n / 20);
  }
  return `${s}x`;
}

/** Documents from..to (exclusive), each about 150 words in a few sentences. */
export function* syntheticDocs(from: number, to: number): Generator<{ id: string; title: string; text: string }> {
  for (let d = from; d < to; d++) {
    const r = rng(d + 1);
    const n = 120 + Math.floor(r() * 60);
    const words = Array.from({ length: n }, () => word(zipf(r)));
    const sentences: string[] = [];
    // Each a sentence as a reader writes one (a capital, a stop), so an answer without a model may quote it.
    for (let i = 0; i < words.length; i += 15) {
      const s = words.slice(i, i + 15).join(" ");
      sentences.push(`${s[0]!.toUpperCase()}${s.slice(1)}.`);
    }
    yield { id: `s${d}`, title: Array.from({ length: 6 }, () => word(zipf(r))).join(" "), text: sentences.join(" ") };
  }
}

/** Queries of 4 words of middling frequency (ranks 50–5,000), as a question's content words would be. */
export function syntheticQueries(n: number): string[] {
  const r = rng(424242);
  return Array.from({ length: n }, () => Array.from({ length: 4 }, () => word(50 + Math.floor(r() * 4950))).join(" "));
}
