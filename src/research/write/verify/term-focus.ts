import { TUNING } from "./tuning.ts";

/** A claim term as the focus test needs it: its weight and the source terms that count for it. */
interface Wanted {
  weight: number;
  matches: [term: string, credit: number][];
}

/**
 * What each candidate sentence may give a claim: only what stands together in its best stretch
 * of TUNING.focusWindow terms, and nothing when the claim's terms are under TUNING.minShare of
 * that stretch. Threat: a "sentence" that is a whole page of numbers or a word list holds every
 * claim's terms somewhere, a tiny share of it and far apart, and would back any claim.
 * `seqs` are the sentences' terms in order; returns the rows that still count, with their ids.
 */
export function focusCredits(
  want: Wanted[],
  seqs: readonly (readonly string[])[],
  ids: number[],
): { ids: number[]; c: Float64Array[] } {
  const lookup = new Map<string, [j: number, credit: number][]>();
  want.forEach((w, j) => {
    for (const [t, credit] of w.matches) {
      const list = lookup.get(t);
      if (list) list.push([j, credit]);
      else lookup.set(t, [[j, credit]]);
    }
  });
  const out = { ids: [] as number[], c: [] as Float64Array[] };
  for (const id of ids) {
    const row = focused(want, seqs[id]!, lookup);
    if (row) {
      out.ids.push(id);
      out.c.push(row);
    }
  }
  return out;
}

/** The best stretch's credits, or null when the claim's terms are a tiny share of it. */
function focused(want: Wanted[], seq: readonly string[], lookup: Map<string, [number, number][]>): Float64Array | null {
  const hits: number[] = [];
  let words = false;
  for (let p = 0; p < seq.length; p++) {
    if (lookup.has(seq[p]!)) hits.push(p);
    if (!words && seq[p]!.charCodeAt(0) !== 35) words = true;
  }
  // A number means something only beside what it counts: a "sentence" of bare numbers backs nothing.
  if (!hits.length || !words) return null;
  const size = TUNING.focusWindow;
  let from = 0,
    count = hits.length;
  if (seq.length > size) [from, count] = bestStretch(want, seq, hits, lookup, size);
  if (count / Math.min(seq.length, size) < TUNING.minShare) return null;
  const row = new Float64Array(want.length);
  for (let h = from; h < from + count; h++)
    for (const [j, credit] of lookup.get(seq[hits[h]!]!)!) if (credit > row[j]!) row[j] = credit;
  return row;
}

/** Of a sentence longer than `size` terms, the run of hits within `size` terms worth most to the claim: [first hit, hits]. */
function bestStretch(
  want: Wanted[],
  seq: readonly string[],
  hits: number[],
  lookup: Map<string, [number, number][]>,
  size: number,
): [number, number] {
  // Per claim term, how many hits at full credit and at a near form's the stretch holds.
  const full = new Int32Array(want.length);
  const part = new Int32Array(want.length);
  const add = (p: number, d: number) => {
    for (const [j, credit] of lookup.get(seq[p]!)!) {
      if (credit >= 1) full[j]! += d;
      else part[j]! += d;
    }
  };
  let best = -1,
    at: [number, number] = [0, 0],
    to = 0;
  for (let from = 0; from < hits.length; from++) {
    while (to < hits.length && hits[to]! < hits[from]! + size) add(hits[to++]!, 1);
    let s = 0;
    for (let j = 0; j < want.length; j++) s += want[j]!.weight * (full[j]! > 0 ? 1 : part[j]! > 0 ? TUNING.near : 0);
    if (s > best) {
      best = s;
      at = [from, to - from];
    }
    add(hits[from]!, -1);
  }
  return at;
}
