import type { FragmentDoc } from "../fixtures/fragment-set.ts";

/** What an answer over the fragment set got wrong, counted (all zero: nothing). */
export interface FragmentFaults {
  /** Markers not standing after a sentence's end, or not followed by the answer's end or a new sentence. */
  markerInside: number;
  /** Quoted pieces that are no whole sentence of the documents. */
  cut: number;
  /** Quoted pieces holding a heading, a code line or a table row. */
  apart: number;
  /** Claims the check counted that are no whole sentence of the documents. */
  claims: number;
  /** Quotes of the evidence that are no whole sentence of the documents. */
  quotes: number;
  /** The pieces quoted, for messages. */
  pieces: string[];
}

export interface Envelope {
  answer: string;
  sources: { evidence?: { claim: string; quote: string }[] }[];
  verification?: { claims: number };
}

const MARKERS = /(?:\s*\[S\d+\])+/g;
// Markdown's backslash escapes read back (the writer escapes what would open markup).
const unescaped = (s: string) => s.replace(/\\([!-/:-@[-`{-~])/g, "$1");
// A sentence's end before a marker; a sentence's start (or nothing) after it.
const ENDED = /[.!?。！？]["'”’)\]]*$/u;
// A name written in lower case (mTOR, p53, c-Myc, α-synuclein) starts a sentence too, as passages.ts reads one.
const STARTED =
  /^(?:$|\s+["'“‘(]*(?:[\p{Lu}\p{Lt}\p{Lo}\p{N}]|\p{Ll}+[\p{Lu}\p{N}]|\p{Script=Greek}[-‐]|\p{Ll}[-‐]\p{Lu}))/u;

/** Checks an extractive answer over `docs`: where its markers stand and what it quotes. */
export function fragmentFaults(env: Envelope, docs: FragmentDoc[]): FragmentFaults {
  const sentences = new Set(docs.flatMap((d) => d.sentences));
  return answerFaults(
    env,
    (s) => sentences.has(s),
    docs.flatMap((d) => d.apart),
  );
}

/** The same over any documents: `whole` tells a whole sentence (or run of them) of theirs, `apart` what is never quoted. */
export function answerFaults(env: Envelope, whole: (s: string) => boolean, apart: string[] = []): FragmentFaults {
  const f: FragmentFaults = { markerInside: 0, cut: 0, apart: 0, claims: 0, quotes: 0, pieces: [] };
  // The lead-in line ("Here is what the sources say:") is the writer's own; the quotes follow it.
  for (const para of env.answer.split(/\n\n+/).slice(1)) {
    for (const m of para.matchAll(MARKERS)) {
      const before = para.slice(0, m.index);
      const after = para.slice(m.index + m[0].length);
      if (!ENDED.test(before) || !STARTED.test(after)) f.markerInside++;
    }
    for (const piece of para.split(MARKERS).map((p) => unescaped(p).trim())) {
      if (!piece) continue;
      f.pieces.push(piece);
      if (!whole(piece)) f.cut++;
      if (apart.some((a) => piece.includes(a))) f.apart++;
    }
  }
  for (const s of env.sources)
    for (const e of s.evidence ?? []) {
      if (!whole(e.claim)) f.claims++;
      if (!whole(e.quote)) f.quotes++;
    }
  if (env.verification && env.verification.claims !== f.pieces.length) f.claims++;
  return f;
}
