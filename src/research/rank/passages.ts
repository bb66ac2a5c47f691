/** Splits text into passages of about `target` words on paragraph, then sentence, boundaries. */
export function splitPassages(text: string, target = 110, max = 170): string[] {
  const paras = text.split(/\n+/).map((p) => p.trim()).filter(Boolean);
  const out: string[] = [];
  let cur: string[] = [];
  let words = 0;
  const push = () => { if (cur.length) out.push(cur.join(" ")); cur = []; words = 0; };
  for (const p of paras) {
    const pieces = p.split(/\s+/).length > max ? splitSentences(p) : [p];
    for (const piece of pieces) {
      const n = piece.split(/\s+/).length;
      if (words && words + n > max) push();
      cur.push(piece);
      words += n;
      if (words >= target) push();
    }
  }
  push();
  return out.filter((p) => p.length >= 40);
}

/** Sentence split that keeps abbreviations like "e.g." and numbers like "3.5" together. */
export function splitSentences(text: string): string[] {
  const parts = text.match(/[^.!?。！？]+(?:[.!?。！？]+(?=\s|$)|$)|[^.!?。！？]*[.!?。！？]+(?!\s|$)[^.!?。！？]*[.!?。！？]*/g) ?? [text];
  const out: string[] = [];
  for (const s of parts.map((x) => x.trim()).filter(Boolean)) {
    const prev = out[out.length - 1];
    if (prev && (/\b(e\.g|i\.e|et al|Dr|Mr|Mrs|Ms|Fig|No|vs|approx)\.$/i.test(prev) || prev.length < 20)) out[out.length - 1] = `${prev} ${s}`;
    else out.push(s);
  }
  return out;
}
