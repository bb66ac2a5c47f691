import { STOPWORDS as STOP } from "../../text/stopwords.ts";

/** Light English suffix stripping: enough to match "editing" with "edit", "studies" with "study". */
export function stem(w: string): string {
  if (w.length <= 4 || !/^[a-z]+$/.test(w)) return w;
  if (w.endsWith("ies")) return w.slice(0, -3) + "y";
  for (const suf of [
    "ational",
    "ations",
    "ation",
    "ness",
    "ments",
    "ment",
    "ings",
    "ing",
    "edly",
    "ed",
    "ly",
    "es",
    "s",
  ]) {
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
