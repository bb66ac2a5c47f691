import { wholeSentences, withoutTitle } from "../../text/passages.ts";
import { Bm25 } from "../rank/bm25.ts";
import { escapeMarkdown } from "./markdown-escape.ts";
import { neutraliseMarkers } from "./markers.ts";
import type { WriterSource } from "./prompt.ts";

const LEAD: Record<string, string> = {
  en: "Here is what the sources say:",
  de: "Das sagen die Quellen:",
  fr: "Voici ce que disent les sources :",
  es: "Esto es lo que dicen las fuentes:",
  it: "Ecco cosa dicono le fonti:",
  pt: "Eis o que dizem as fontes:",
  nl: "Dit zeggen de bronnen:",
  ru: "Вот что говорят источники:",
  zh: "以下是来源中的相关内容：",
  ja: "情報源には次のように書かれています：",
  ko: "출처의 내용은 다음과 같습니다:",
  ar: "إليك ما تقوله المصادر:",
};

// Reference marks inside quoted text ("[12]", "【1】", "[citation needed]") are cut (cutting
// only; nothing is added); anything our citation parser reads goes too (markers.ts).
const REFS = /\s*(?:\[(?:\d+(?:\s*[,–-]\s*\d+)*|citation needed|note \d+|[a-z])\]|【[^】]{0,12}】)/g;

export interface ExtractiveOptions {
  /** Sentences at most (default 8). */
  maxSentences?: number;
  /** Sentences from one source at most (default 3). */
  perSource?: number;
  /** The answer as it is composed: the lead-in, then a paragraph at a time. */
  onDelta?: (text: string) => void;
}

interface Sentence {
  src: number;
  pos: number;
  text: string;
  score: number;
}

/**
 * Candidate sentences: whole (begun and ended as sentences, never a heading, code or a table
 * row: wholeSentences), readable, with reference marks and marker-shaped text cut.
 */
function sentencesOf(sources: WriterSource[]): Omit<Sentence, "score">[] {
  const out: Omit<Sentence, "score">[] = [];
  sources.forEach((s, src) => {
    for (const p of s.passages)
      for (const raw of wholeSentences(withoutTitle(p, s.title))) {
        const text = neutraliseMarkers(raw.replace(REFS, "")).trim();
        if (text.length >= 40 && text.length <= 600 && /\p{L}/u.test(text)) out.push({ src, pos: out.length, text });
      }
  });
  return out;
}

/**
 * The answer without a model: the sentences of the chosen passages that best match the
 * question, quoted as they are, each followed by its source marker; one paragraph per
 * source, sources in order of their best sentence, sentences in text order, escaped so they
 * read as written (markdown-escape.ts). Nothing is invented beyond the one-line lead-in. Empty when the passages hold no usable sentence.
 */
export function writeExtractive(
  question: string,
  language: string,
  sources: WriterSource[],
  o: ExtractiveOptions = {},
): string {
  const maxSentences = o.maxSentences ?? 8,
    perSource = o.perSource ?? 3;
  const all = sentencesOf(sources);
  if (!all.length) return "";
  const scores = new Bm25(all.map((s) => s.text)).scores(question);
  const ranked: Sentence[] = all
    .map((s, i) => ({ ...s, score: scores[i]! }))
    .sort((a, b) => b.score - a.score || a.pos - b.pos);
  const chosen: Sentence[] = [];
  const count = new Map<number, number>();
  const seen = new Set<string>();
  for (const s of ranked) {
    if (chosen.length >= maxSentences) break;
    const key = s.text.toLowerCase().replace(/\W+/g, " ").slice(0, 80);
    if (seen.has(key) || (count.get(s.src) ?? 0) >= perSource) continue;
    seen.add(key);
    count.set(s.src, (count.get(s.src) ?? 0) + 1);
    chosen.push(s);
  }
  const srcOrder = [...new Set(chosen.map((s) => s.src))];
  const paras = srcOrder.map((src) =>
    chosen
      .filter((s) => s.src === src)
      .sort((a, b) => a.pos - b.pos)
      .map((s) => `${escapeMarkdown(s.text)} [${sources[src]!.id}]`)
      .join(" "),
  );
  const parts = [LEAD[language] ?? LEAD.en!, ...paras];
  parts.forEach((p, i) => {
    o.onDelta?.(i === 0 ? p : `\n\n${p}`);
  });
  return parts.join("\n\n");
}
