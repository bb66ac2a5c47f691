import { messagesTokens, promptTokens } from "../llm/token-estimate.ts";
import { type WriterSource, writerMessages } from "./prompt.ts";

/** How one writer call spends its token budget (LLM_TOKEN_BUDGET): room for the answer, and for the sources. */
export interface WriterBudget {
  /** max_tokens of the call: the answer and, for reasoning models, their thinking. */
  maxTokens: number;
  /** Prompt tokens the passages may take (what remains once the answer, rules, question and framing are counted). */
  passageTokens: number;
}

/** An answer of a few hundred words plus a reasoning model's thinking fits; more only reserves window for nothing. */
const ANSWER_SHARE = 0.45;
const ANSWER_MIN = 1024;
const ANSWER_MAX = 4096;
/** What a source's fence costs beside its passages: id, a title and an address of typical length. */
const FENCE_TOKENS = 90;

/**
 * Splits the budget of one writer call (prompt + max_tokens, which is what Groq reserves
 * against a model's tokens-per-minute window) between the answer and the sources.
 */
export function writerBudget(total: number, question: string, language: string, maxSources: number): WriterBudget {
  const maxTokens = Math.min(ANSWER_MAX, Math.max(ANSWER_MIN, Math.round(total * ANSWER_SHARE)));
  const frame = messagesTokens(writerMessages(question, language, [])) + maxSources * FENCE_TOKENS;
  return { maxTokens, passageTokens: Math.max(0, total - maxTokens - frame) };
}

/**
 * Sources trimmed until the prompt fits `promptBudget` (titles and addresses longer than the
 * allowance can tip it): the last passage of the lowest-ranked source goes first, and every
 * source keeps its best-placed one.
 */
export function fitSources(
  question: string,
  language: string,
  sources: WriterSource[],
  promptBudget: number,
): WriterSource[] {
  const out = sources.map((s) => ({ ...s, passages: [...s.passages] }));
  const size = () => messagesTokens(writerMessages(question, language, out));
  let over = size() - promptBudget;
  for (let i = out.length - 1; i >= 0 && over > 0; i--) {
    const s = out[i]!;
    while (s.passages.length > 1 && over > 0) over -= promptTokens(s.passages.pop()!);
  }
  return out;
}
