import type { QuestionKind } from "../search/run-search.ts";
import { detectLanguage } from "./language.ts";

/** What the planner decides (issue: kind, language, 2–4 queries). */
export interface Plan { kind: QuestionKind; language: string; queries: string[] }

const ACADEMIC = /\b(paper|papers|study|studies|evidence|trial|trials|meta-?analys[ie]s|systematic review|doi|arxiv|peer-?reviewed|journal|clinical|protein|gene|genes|enzyme|cells?|molecul\w*|theorem|algorithm|efficacy|randomi[sz]ed|cohort|hypothesis|literature|citation|pubmed|neural network|quantum)\b/i;
const NEWS = /\b(today|yesterday|latest|breaking|this week|this month|news|current(ly)?|recent(ly)?|now|price|prices|stock|election|announced?|release date|20(2[4-9]|3\d))\b/i;
const STOP = new Set("a an the of in on for to and or is are was were be what which who whom how why when where does do did can could should would will about with by from that this these those than as at it its into me my i you your we our they their please tell explain".split(" "));

/** Keyword-only version of the question (stop words and punctuation removed). */
export function keywordQuery(q: string): string {
  return (q.match(/[\p{L}\p{N}][\p{L}\p{N}+#.'-]*/gu) ?? []).filter((w) => !STOP.has(w.toLowerCase())).join(" ").slice(0, 300);
}

/** A plan without a model: kind from cue words, language from the text, two queries. */
export function heuristicPlan(question: string): Plan {
  const academic = ACADEMIC.test(question), news = NEWS.test(question);
  const kind: QuestionKind = academic && news ? "mixed" : academic ? "academic" : news ? "news" : "general";
  const q = question.replace(/\s+/g, " ").trim().slice(0, 400);
  const kw = keywordQuery(q);
  const queries = [q];
  if (kw && kw.toLowerCase() !== q.toLowerCase()) queries.push(kw);
  return { kind, language: detectLanguage(question), queries };
}
