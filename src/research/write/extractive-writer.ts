import { Bm25 } from "../rank/bm25.ts";
import { splitSentences } from "../rank/passages.ts";
import type { WriterSource } from "./prompt.ts";

const LEAD: Record<string, string> = {
  en: "Here is what the sources say:", de: "Das sagen die Quellen:", fr: "Voici ce que disent les sources :",
  es: "Esto es lo que dicen las fuentes:", it: "Ecco cosa dicono le fonti:", pt: "Eis o que dizem as fontes:", nl: "Dit zeggen de bronnen:",
};

/**
 * The answer without a model: the sentences of the chosen passages that best match the
 * question, quoted as they are, each followed by its source marker, grouped by source
 * in order of relevance. Nothing is invented beyond the one-line lead-in.
 */
export function writeExtractive(question: string, language: string, sources: WriterSource[], maxSentences = 8): string {
  const sentences: { src: number; text: string }[] = [];
  sources.forEach((s, src) => {
    for (const p of s.passages) for (const t of splitSentences(p)) {
      const text = t.replace(/\s+/g, " ").trim();
      if (text.length >= 40 && text.length <= 600 && /[\p{L}]/u.test(text)) sentences.push({ src, text });
    }
  });
  if (!sentences.length) return "";
  const scores = new Bm25(sentences.map((s) => s.text)).scores(question);
  const ranked = sentences.map((s, i) => ({ ...s, score: scores[i]!, i })).sort((a, b) => b.score - a.score);
  const chosen: typeof ranked = [];
  const perSource = new Map<number, number>();
  const seen = new Set<string>();
  for (const s of ranked) {
    if (chosen.length >= maxSentences) break;
    const key = s.text.toLowerCase().slice(0, 80);
    if (seen.has(key) || (perSource.get(s.src) ?? 0) >= 3) continue;
    seen.add(key);
    perSource.set(s.src, (perSource.get(s.src) ?? 0) + 1);
    chosen.push(s);
  }
  // Paragraph per source, sources in order of their best sentence, sentences in text order.
  const srcOrder = [...new Set(chosen.map((s) => s.src))];
  const paras = srcOrder.map((src) => chosen.filter((s) => s.src === src).sort((a, b) => a.i - b.i)
    .map((s) => `${s.text.replace(/\s*\[[^\]]*\]\s*$/, "")} [${sources[src]!.id}]`).join(" "));
  return `${LEAD[language] ?? LEAD.en}\n\n${paras.join("\n\n")}`;
}
