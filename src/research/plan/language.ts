const SCRIPTS: [RegExp, string][] = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, "ja"], [/\p{Script=Hangul}/u, "ko"], [/\p{Script=Han}/u, "zh"],
  [/\p{Script=Arabic}/u, "ar"], [/\p{Script=Cyrillic}/u, "ru"], [/\p{Script=Greek}/u, "el"], [/\p{Script=Hebrew}/u, "he"],
  [/\p{Script=Devanagari}/u, "hi"], [/\p{Script=Thai}/u, "th"],
];

const WORDS: Record<string, string[]> = {
  en: ["the", "what", "how", "why", "is", "are", "of", "and", "does", "which", "who", "in"],
  de: ["der", "die", "das", "und", "ist", "wie", "was", "warum", "nicht", "ein", "eine", "welche", "für"],
  fr: ["le", "la", "les", "et", "est", "comment", "pourquoi", "quel", "quelle", "des", "une", "du", "qu"],
  es: ["el", "los", "las", "y", "es", "cómo", "qué", "por", "una", "del", "cuál", "para"],
  it: ["il", "gli", "e", "è", "come", "perché", "che", "una", "della", "quali", "sono"],
  pt: ["o", "os", "as", "e", "é", "como", "porque", "que", "uma", "do", "da", "são", "qual"],
  nl: ["de", "het", "een", "en", "is", "hoe", "wat", "waarom", "van", "zijn", "welke"],
};

/** The question's language as a short code, from its script or its function words (default en). */
export function detectLanguage(text: string): string {
  for (const [re, lang] of SCRIPTS) if (re.test(text)) return lang;
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best = "en", bestScore = 0;
  for (const [lang, list] of Object.entries(WORDS)) {
    const set = new Set(list);
    const s = words.filter((w) => set.has(w)).length + (lang === "en" ? 0.5 : 0);
    if (s > bestScore) { best = lang; bestScore = s; }
  }
  return best;
}
