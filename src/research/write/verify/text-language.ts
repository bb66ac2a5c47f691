import { detectLanguage } from "../../plan/language.ts";

const OTHER_SCRIPT = /[^\P{L}\p{Script=Latin}]/u;

const SCRIPTS: [RegExp, string][] = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/gu, "ja"],
  [/\p{Script=Hangul}/gu, "ko"],
  [/\p{Script=Han}/gu, "zh"],
  [/\p{Script=Arabic}/gu, "ar"],
  [/\p{Script=Cyrillic}/gu, "ru"],
  [/\p{Script=Greek}/gu, "el"],
  [/\p{Script=Hebrew}/gu, "he"],
  [/\p{Script=Devanagari}/gu, "hi"],
  [/\p{Script=Thai}/gu, "th"],
];

/**
 * The language a longer text is written in: its main script, and for Latin script its
 * function words. Unlike a question's detection, one Chinese name in an English page
 * does not make the page Chinese.
 */
export function languageOfText(whole: string): string {
  // A page's first few thousand characters tell its language as well as all of it.
  const text = whole.slice(0, 1500);
  // Most pages are in Latin script: one test spares counting every script.
  if (!OTHER_SCRIPT.test(text)) return detectLanguage(text);
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (!letters) return "en";
  let best = "",
    most = 0;
  for (const [re, lang] of SCRIPTS) {
    const n = text.match(re)?.length ?? 0;
    if (n > most) {
      most = n;
      best = lang;
    }
  }
  // Japanese is written with Han too: kana anywhere near as common makes it Japanese.
  if (best && most / letters >= 0.3) {
    const kana = text.match(SCRIPTS[0]![0])?.length ?? 0;
    return best === "zh" && kana >= most * 0.2 ? "ja" : best;
  }
  return detectLanguage(text.replace(/[^\p{Script=Latin}\s]/gu, " "));
}
