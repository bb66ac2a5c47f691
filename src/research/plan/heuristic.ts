import { stopwordsFor } from "../../text/stopwords.ts";
import type { QuestionKind } from "../search/run-search.ts";
import { detectLanguage } from "./language.ts";

/** What the planner decides: the kind of question, its language, and 2–4 search queries. */
export interface Plan {
  kind: QuestionKind;
  language: string;
  queries: string[];
}

// Whole-word cue lists (Unicode-aware boundaries, so "études" and "Studie" match too).
const cue = (words: string) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${words})(?![\\p{L}\\p{N}])`, "iu");

const ACADEMIC = cue(
  [
    "papers?",
    "stud(?:y|ies)",
    "evidence",
    "trials?",
    "meta-?analys[ie]s",
    "systematic reviews?",
    "doi",
    "arxiv",
    "peer-?reviewed",
    "journals?",
    "clinical",
    "proteins?",
    "genes?",
    "genom\\w*",
    "enzymes?",
    "cells?",
    "molecul\\w*",
    "theorem",
    "algorithms?",
    "efficacy",
    "randomi[sz]ed",
    "cohort",
    "hypothes[ie]s",
    "literature",
    "citations?",
    "pubmed",
    "neural networks?",
    "quantum",
    "research",
    "scientific",
    "studie[n]?",
    "klinisch\\w*",
    "forschung",
    "étude?s?",
    "recherche",
    "estudios?",
    "investigación",
    "ensayos?",
    "studio",
    "ricerca",
    "pesquisa",
    "onderzoek",
  ].join("|"),
);
const NEWS = cue(
  [
    "today",
    "yesterday",
    "tonight",
    "latest",
    "breaking",
    "this (?:week|month|year)",
    "news",
    "current(?:ly)?",
    "recent(?:ly)?",
    "right now",
    "prices?",
    "stocks?",
    "elections?",
    "announce[sd]?",
    "release date",
    "score",
    "20(?:2[4-9]|3\\d)",
    "heute",
    "aktuell\\w*",
    "neueste\\w*",
    "nachrichten",
    "wahl(?:en)?",
    "aujourd'hui",
    "actualités?",
    "dernières?",
    "élections?",
    "hoy",
    "noticias",
    "últim[oa]s?",
    "elecciones",
    "oggi",
    "notizie",
    "hoje",
    "notícias",
    "vandaag",
    "nieuws",
  ].join("|"),
);

/** Keyword-only version of the question: punctuation and the language's stop words removed. */
export function keywordQuery(q: string, language = detectLanguage(q)): string {
  const stop = stopwordsFor(language);
  return (q.match(/[\p{L}\p{N}][\p{L}\p{N}+#.'-]*/gu) ?? [])
    .map((w) => w.replace(/[.'-]+$/, ""))
    .filter((w) => w && !stop.has(w.toLowerCase()))
    .join(" ")
    .slice(0, 300);
}

/** The kind of question from cue words: academic, news, both (mixed) or neither (general). */
export function questionKind(question: string): QuestionKind {
  const academic = ACADEMIC.test(question),
    news = NEWS.test(question);
  return academic && news ? "mixed" : academic ? "academic" : news ? "news" : "general";
}

/** A plan without a model: kind from cue words, language from the text, the question plus its keywords. */
export function heuristicPlan(question: string): Plan {
  const language = detectLanguage(question);
  const q = question.replace(/\s+/g, " ").trim().slice(0, 300);
  const kw = keywordQuery(q, language);
  const queries = [q];
  if (kw && kw.toLowerCase() !== q.toLowerCase()) queries.push(kw);
  return { kind: questionKind(question), language, queries };
}
