import { withoutTitle } from "../../text/passages.ts";
import { bm25Idf } from "../rank/bm25.ts";
import type { WriterSource } from "./prompt.ts";
import { analyserFor } from "./verify/analyse.ts";

/**
 * Which sources an extractive answer may quote: only those that answer the question
 * (docs/decisions/0139-extractive-answers-quote-only-relevant-sources.md). A verbatim quote
 * always passes the claim check, so without these floors quotes from unrelated sources
 * counted as backed claims.
 */
export interface RelevanceFloors {
  /** A source is kept when its relevance is at least this share of the best source's. */
  relative: number;
  /** When the best source's relevance is below this, nothing is quoted: the sources hold nothing on the question. */
  absolute: number;
}

/** Chosen on SciFact's training claims and the extraction pages (bench 13, test/bench/RESULTS.md). */
export const FLOORS: RelevanceFloors = { relative: 0.6, absolute: 0.1 };

/**
 * Words that frame an English question rather than name its subject ("How does base editing
 * work?"): left out of the weighing, since a source rarely repeats them and a term no source
 * holds weighs most.
 */
const FRAMING =
  "work works working explain describe mean means meaning use used uses happen happens example examples way ways difference differences role main best";
let framingEn: Set<string> | null = null;
function framingOf(language: string): Set<string> {
  if (language !== "en") return new Set();
  framingEn ??= new Set(analyserFor("en").terms(FRAMING));
  return framingEn;
}

/**
 * Each source's relevance to the question, in [0, 1]: the share of the question's terms
 * (stems, stop words out) its passages hold, each term weighted by how few of the sources hold
 * it. A term none holds weighs most, so a question about something no source names scores
 * low whatever its common words match ("limits", "state" in abstracts on toxicity).
 */
export function sourceRelevance(question: string, language: string, sources: WriterSource[]): number[] {
  const a = analyserFor(language);
  const frame = framingOf(language);
  const asked = [...new Set(a.terms(question))].filter((t) => !frame.has(t));
  if (!asked.length) return sources.map(() => 0);
  const held = sources.map((s) => new Set(s.passages.flatMap((p) => a.terms(withoutTitle(p, s.title)))));
  const weight = asked.map((t) => bm25Idf(held.length, held.filter((h) => h.has(t)).length));
  const total = weight.reduce((x, w) => x + w, 0);
  return held.map((h) => asked.reduce((x, t, i) => x + (h.has(t) ? weight[i]! : 0), 0) / total);
}

/**
 * The sources an extractive answer quotes, in their order: those at `relative` of the best
 * source's relevance or above; none when the best is below `absolute`.
 */
export function relevantSources(
  question: string,
  language: string,
  sources: WriterSource[],
  floors: RelevanceFloors = FLOORS,
): WriterSource[] {
  const scores = sourceRelevance(question, language, sources);
  const top = Math.max(0, ...scores);
  if (top < floors.absolute || top === 0) return [];
  return sources.filter((_, i) => scores[i]! >= floors.relative * top);
}

/** What an extractive answer says when no source clears the absolute floor: plainly, nothing is on it. */
const NOTHING: Record<string, string> = {
  en: "The sources found hold nothing on this question: none shares enough of its words to be quoted.",
  de: "Die gefundenen Quellen enthalten nichts zu dieser Frage: keine teilt genug ihrer Wörter, um zitiert zu werden.",
  fr: "Les sources trouvées ne contiennent rien sur cette question : aucune n'en partage assez de mots pour être citée.",
  es: "Las fuentes encontradas no contienen nada sobre esta pregunta: ninguna comparte suficientes de sus palabras para ser citada.",
  it: "Le fonti trovate non contengono nulla su questa domanda: nessuna ne condivide abbastanza parole per essere citata.",
  pt: "As fontes encontradas não contêm nada sobre esta pergunta: nenhuma partilha palavras suficientes dela para ser citada.",
  nl: "De gevonden bronnen bevatten niets over deze vraag: geen enkele deelt genoeg van haar woorden om geciteerd te worden.",
  ru: "В найденных источниках нет ничего по этому вопросу: ни один не содержит достаточно его слов, чтобы его процитировать.",
  zh: "找到的来源中没有关于这个问题的内容：没有任何来源包含足够的相关词语可供引用。",
  ja: "見つかった情報源には、この質問についての内容がありません。引用できるほど質問の語を含む情報源はありません。",
  ko: "찾은 출처에는 이 질문에 관한 내용이 없습니다. 인용할 만큼 질문의 단어를 담은 출처가 없습니다.",
  ar: "لا تحتوي المصادر التي عُثر عليها على شيء عن هذا السؤال: لا يشترك أي منها في ما يكفي من كلماته ليُقتبس.",
};

export const nothingOnIt = (language: string): string => NOTHING[language] ?? NOTHING.en!;
