import { MAX_QUERY_CHARS } from "../contract/query.ts";

/**
 * A chat's follow-up ("And in mice?", "Is it safe?") means nothing searched alone, and a chat
 * client sends no other context: the run's question becomes the user's earlier question(s) and
 * the follow-up, in the words they typed (docs/decisions/0174-the-question-of-a-chat.md).
 * Answers are never folded in: they are long, and the charge would depend on them.
 */

/** Words that open a sentence continuing the one before. */
const CONTINUES =
  /^(and|but|or|also|so|then|what about|how about|what of|same for|as for|compared (to|with)|versus|vs\.?)\b/iu;

/** A pronoun that needs a referent; only a short message is read as leaning on one. */
const LEANS = /\b(it|its|they|them|their|this|that|these|those|he|she|his|her)\b/iu;

const SHORT_WORDS = 8;
/** "Why?", "In mice?", "Side effects?": too short to be a question of its own. */
const FRAGMENT_WORDS = 3;

const words = (s: string) => s.split(/\s+/u).filter(Boolean).length;

/** Does this message lean on the turn before it? */
export function isFollowUp(text: string): boolean {
  const t = text.trim();
  const n = words(t);
  return CONTINUES.test(t) || n <= FRAGMENT_WORDS || (n <= SHORT_WORDS && LEANS.test(t));
}

const codePoints = (s: string) => [...s].length;

/**
 * The question a run researches: the last user message, preceded by the user's earlier
 * messages back to the first that is not itself a follow-up, oldest dropped first to stay
 * within the question's limit. `userTurns` are the user's messages in order, the last one last.
 */
export function withEarlierTurns(userTurns: string[]): string {
  const last = userTurns.at(-1) ?? "";
  const chain = [last];
  let current = last;
  for (let i = userTurns.length - 2; i >= 0 && isFollowUp(current); i--) {
    const earlier = userTurns[i]!.trim();
    if (!earlier) continue;
    const joined = [earlier, ...chain].join("\n");
    if (codePoints(joined) > MAX_QUERY_CHARS) break;
    chain.unshift(earlier);
    current = earlier;
  }
  return chain.join("\n");
}
