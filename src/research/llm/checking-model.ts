import { LlmError } from "./llm-error.ts";
import { createOpenAiCompatibleClient } from "./openai-compatible.ts";
import type { RetryPolicy } from "./retry.ts";
import type { ChatMessage } from "./types.ts";

/**
 * The model asked for a second opinion on a claim (VERIFY_BASE_URL, README "Claims you can
 * check"): any OpenAI-compatible server, asked MiniCheck's question, "Document: … Claim: …",
 * and held to a one-word answer, Yes or No
 * (docs/decisions/0167-a-second-opinion-asks-minichecks-question.md).
 */

/** Settings of the checking model (VERIFY_*). */
export interface CheckingModelSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  retry?: RetryPolicy;
  /** Ceiling of one attempt; the caller's deadline usually comes first. */
  attemptMs?: number;
}

/** One question: does `document` back `claim`? */
export interface CheckQuestion {
  document: string;
  claim: string;
}

export interface CheckingModel {
  readonly model: string;
  /** true: the document backs the claim; false: it does not. Throws LlmError on anything else. */
  ask(q: CheckQuestion, o: { signal: AbortSignal; deadline: number }): Promise<boolean>;
}

/** What an instruct model needs to answer as MiniCheck does; MiniCheck itself reads only the user turn's format. */
const SYSTEM =
  "You check whether a document supports a claim. Answer Yes if the document supports everything the claim says, No otherwise. Answer with the one word Yes or No.";

/** Room for "Yes", a stray period and a chat template's end token; a model that thinks first runs out and fails. */
export const ANSWER_TOKENS = 16;

/** The messages of one question, as sent. */
export const checkingMessages = (q: CheckQuestion): ChatMessage[] => [
  { role: "system", content: SYSTEM },
  { role: "user", content: `Document: ${q.document}\nClaim: ${q.claim}` },
];

/** Yes or No, alone but for case, spaces and a final period; anything else is not an answer. */
export function parseYesNo(text: string): boolean {
  const t = text.trim().replace(/\.$/, "").toLowerCase();
  if (t === "yes") return true;
  if (t === "no") return false;
  throw new LlmError("bad_payload", `answered ${JSON.stringify(text.slice(0, 40))}, not Yes or No`, {
    retryable: false,
  });
}

export function createCheckingModel(s: CheckingModelSettings): CheckingModel {
  const client = createOpenAiCompatibleClient({
    baseUrl: s.baseUrl,
    apiKey: s.apiKey,
    retry: s.retry,
    timeoutMs: s.attemptMs,
    who: "the checking model",
  });
  return {
    model: s.model,
    async ask(q, o) {
      const { text } = await client.chat({
        model: s.model,
        messages: checkingMessages(q),
        signal: o.signal,
        deadline: o.deadline,
        temperature: 0,
        maxTokens: ANSWER_TOKENS,
      });
      return parseYesNo(text);
    },
  };
}
