/** Scripts that name a language by themselves, in the order they are tested (kana before Han). */
export const SCRIPTS: [RegExp, string][] = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, "ja"],
  [/\p{Script=Hangul}/u, "ko"],
  [/\p{Script=Han}/u, "zh"],
  [/\p{Script=Arabic}/u, "ar"],
  [/\p{Script=Cyrillic}/u, "ru"],
  [/\p{Script=Greek}/u, "el"],
  [/\p{Script=Hebrew}/u, "he"],
  [/\p{Script=Devanagari}/u, "hi"],
  [/\p{Script=Thai}/u, "th"],
];

// Function words that rarely appear in the other languages' questions.
const WORDS: Record<string, string[]> = {
  en: ["the", "what", "how", "why", "is", "are", "of", "and", "does", "which", "who", "in", "do", "can"],
  de: [
    "der",
    "die",
    "das",
    "und",
    "ist",
    "wie",
    "was",
    "warum",
    "nicht",
    "ein",
    "eine",
    "welche",
    "für",
    "sind",
    "gibt",
    "es",
    "mit",
  ],
  fr: [
    "le",
    "la",
    "les",
    "et",
    "est",
    "comment",
    "pourquoi",
    "quel",
    "quelle",
    "quels",
    "des",
    "une",
    "du",
    "qu",
    "sont",
    "pour",
    "dans",
  ],
  es: ["el", "los", "las", "y", "es", "cómo", "qué", "por", "una", "del", "cuál", "para", "son", "cuáles", "está"],
  it: ["il", "gli", "e", "è", "come", "perché", "che", "una", "della", "quali", "sono", "cosa", "di", "per"],
  pt: ["o", "os", "as", "e", "é", "como", "porque", "que", "uma", "do", "da", "são", "qual", "não", "em", "para"],
  nl: ["de", "het", "een", "en", "is", "hoe", "wat", "waarom", "van", "zijn", "welke", "niet", "wordt"],
};

const WORD_SETS = Object.entries(WORDS).map(([lang, list]) => [lang, new Set(list)] as const);

/** The question's language as a short code, from its script or its function words (default en). */
export function detectLanguage(text: string): string {
  for (const [re, lang] of SCRIPTS) if (re.test(text)) return lang;
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best = "en",
    bestScore = 0;
  for (const [lang, set] of WORD_SETS) {
    // English wins ties: it is the likeliest language of a short, ambiguous question.
    const s = words.filter((w) => set.has(w)).length + (lang === "en" ? 0.5 : 0);
    if (s > bestScore) {
      best = lang;
      bestScore = s;
    }
  }
  return best;
}

const NAMES: Record<string, string> = {
  english: "en",
  german: "de",
  deutsch: "de",
  french: "fr",
  français: "fr",
  francais: "fr",
  spanish: "es",
  español: "es",
  italian: "it",
  italiano: "it",
  portuguese: "pt",
  português: "pt",
  dutch: "nl",
  nederlands: "nl",
  russian: "ru",
  chinese: "zh",
  mandarin: "zh",
  japanese: "ja",
  korean: "ko",
  arabic: "ar",
  greek: "el",
  hebrew: "he",
  hindi: "hi",
  turkish: "tr",
  polish: "pl",
};

/** "en", "en-US", "pt_BR", "English" → the primary subtag ("en", "pt"); null when unreadable. */
export function normalizeLanguage(value: string): string | null {
  const v = value.trim().toLowerCase();
  if (NAMES[v]) return NAMES[v];
  const m = /^([a-z]{2,3})(?:[-_][a-z0-9]{2,8})*$/.exec(v);
  return m ? m[1]! : null;
}
