import { detectLanguage, SCRIPTS as PLAN_SCRIPTS } from "../../plan/language.ts";

const OTHER_SCRIPT = /[^\P{L}\p{Script=Latin}]/u;

// The planner's scripts, counted rather than tested: global copies of its patterns.
const SCRIPTS = PLAN_SCRIPTS.map(([re, lang]) => [new RegExp(re.source, "gu"), lang] as const);

/**
 * The language a longer text is written in: its main script, and for Latin script its
 * function words. Unlike a question's detection, one Chinese name in an English page
 * does not make the page Chinese.
 */
export function languageOfText(whole: string): string {
  // Enough to tell: callers pass quotes, or a page's sample spread across it (languageAcross).
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

/**
 * The language most of a source is written in: slices from the whole of it, evenly spaced, so
 * text placed at its start (or anywhere) cannot decide for the rest.
 */
export function languageAcross(sentences: readonly string[]): string {
  const all = sentences.join(" ");
  if (all.length <= SAMPLE) return languageOfText(all);
  const n = SAMPLE / SLICE;
  const step = (all.length - SLICE) / (n - 1);
  let sample = "";
  for (let k = 0; k < n; k++) sample += `${all.slice(Math.round(k * step), Math.round(k * step) + SLICE)} `;
  return languageOfText(sample);
}

const SAMPLE = 1500;
const SLICE = 150;
