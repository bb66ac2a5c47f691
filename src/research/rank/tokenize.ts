// Small multilingual stop list: enough to keep function words from dominating BM25.
const STOP = new Set(("a an and are as at be but by for from has have how i if in into is it its of on or that the their there these "
  + "this to was were what when where which who why will with does do did can could should would about than then them they we you your "
  + "der die das und ist nicht ein eine zu den von mit sich des auf für im dem le la les et est un une des du en que qui pour dans "
  + "el los las y es del por con una para il di che e della per non è o de het een van op te zijn").split(" "));

/** Light English suffix stripping: enough to match "editing" with "edit", "studies" with "study". */
export function stem(w: string): string {
  if (w.length <= 4 || !/^[a-z]+$/.test(w)) return w;
  if (w.endsWith("ies")) return w.slice(0, -3) + "y";
  for (const suf of ["ational", "ations", "ation", "ness", "ments", "ment", "ings", "ing", "edly", "ed", "ly", "es", "s"]) {
    if (w.endsWith(suf) && w.length - suf.length >= 3) {
      const base = w.slice(0, -suf.length);
      return suf === "s" && base.endsWith("s") ? w : base;
    }
  }
  return w;
}

/** Lower-cased, stemmed terms without stop words; CJK runs become character bigrams. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) {
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(raw)) {
      const chars = [...raw];
      if (chars.length === 1) out.push(raw);
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
      continue;
    }
    if (STOP.has(raw) || raw.length < 2) continue;
    out.push(stem(raw));
  }
  return out;
}
