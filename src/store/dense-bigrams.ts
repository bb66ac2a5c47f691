// Scripts written without spaces: unicode61 would make a whole run of them one token, so a
// word inside a sentence could never match. Runs become overlapping character pairs, in the
// index and in queries alike (the usual bigram indexing of CJK search engines).
const DENSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]+/gu;

/** The text with each run of dense-script characters replaced by its overlapping pairs. */
export function denseBigrams(text: string): string {
  return text.replace(DENSE, (run) => {
    const chars = [...run];
    if (chars.length < 3) return ` ${run} `;
    const pairs: string[] = [];
    for (let i = 0; i + 1 < chars.length; i++) pairs.push(chars[i]! + chars[i + 1]!);
    return ` ${pairs.join(" ")} `;
  });
}
