import type { ChatMessage } from "./types.ts";

// Upper bounds of tokens per character under the tokenizers the writer's models use
// (o200k, Llama 3, Qwen): English prose runs ~4.2 characters a token, accented Latin,
// Cyrillic, Greek, Arabic and Hebrew letters 2–3, CJK, kana, Hangul, Thai and Indic
// scripts about one. Overestimating costs a few passages; underestimating costs a 413.
const ASCII_PER_TOKEN = 3.5;
const ALPHABETIC_PER_TOKEN = 2;
const ALPHABETIC = /[\u00c0-\u02af\u0370-\u058f\u0590-\u06ff\u0750-\u077f]/;

/** Tokens a text can take at most in a model's prompt (a budget, not a count: docs/how-it-behaves.md "The model"). */
export function promptTokens(text: string): number {
  let ascii = 0,
    alphabetic = 0,
    other = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) ascii++;
    else if (ALPHABETIC.test(ch)) alphabetic++;
    else other++;
  }
  return Math.ceil(ascii / ASCII_PER_TOKEN + alphabetic / ALPHABETIC_PER_TOKEN + other);
}

/** A chat request's prompt: its messages plus the few tokens of framing each message costs. */
export const messagesTokens = (messages: ChatMessage[]): number =>
  messages.reduce((t, m) => t + promptTokens(m.content) + 4, 3);

/** Token estimate from text length (src/contract/envelope.ts usage: estimates, not model counts): ~4 chars a token. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);
