import { AppError } from "../../contract/errors.ts";
import type { Llm } from "../llm/factory.ts";
import { LlmError } from "../llm/llm-error.ts";
import { createThinkFilter, stripThinking } from "../llm/think-filter.ts";
import { estimateTokens } from "../llm/token-estimate.ts";
import { fitSources, writerBudget } from "./budget.ts";
import { type WriterSource, writerMessages } from "./prompt.ts";

/** The answer text (reasoning removed) and the token estimates of the call. */
export interface Written {
  text: string;
  tokens_in: number;
  tokens_out: number;
}

export interface WriteOptions {
  question: string;
  /** Language code of the plan ("en", "de"); the answer is written in it. */
  language: string;
  sources: WriterSource[];
  llm: Pick<Llm, "client" | "model">;
  /** Tokens the call may reserve, prompt + max_tokens (LLM_TOKEN_BUDGET). */
  tokenBudget: number;
  signal: AbortSignal;
  /** The run's deadline (epoch ms): no retry or rate-limit wait runs past it. */
  deadline?: number;
  /** Visible answer text as it streams (never what is inside <think>). */
  onDelta: (text: string) => void;
  /** Told of each retry of the model call (the run's trace records it). */
  onRetry?: (attempt: number, reason: string) => void;
}

/**
 * Streams the answer from the writer's model. Throws AppError llm_failed when the model
 * fails after retries or answers nothing but reasoning; an abort propagates as the
 * client's LlmError (reason "aborted") so the caller can tell a deadline from a failure.
 */
export async function writeWithLlm(o: WriteOptions): Promise<Written> {
  const { maxTokens } = writerBudget(o.tokenBudget, o.question, o.language, o.sources.length);
  const sources = fitSources(o.question, o.language, o.sources, o.tokenBudget - maxTokens);
  const messages = writerMessages(o.question, o.language, sources);
  const filter = createThinkFilter(o.onDelta);
  let raw: string;
  try {
    const r = await o.llm.client.chat({
      model: o.llm.model,
      messages,
      signal: o.signal,
      deadline: o.deadline,
      onRetry: o.onRetry,
      temperature: 0.2,
      maxTokens,
      onDelta: (t) => filter.push(t),
    });
    filter.end();
    raw = r.text;
  } catch (e) {
    if (o.signal.aborted) throw e instanceof LlmError ? e : new LlmError("aborted", "aborted");
    throw new AppError(
      "llm_failed",
      `the writer's model failed: ${e instanceof Error ? e.message : "unexpected error"}`,
    );
  }
  const text = stripThinking(raw).trim();
  if (!text) throw new AppError("llm_failed", "the writer's model returned no answer text");
  return {
    text,
    tokens_in: estimateTokens(messages.map((m) => m.content).join("\n")),
    tokens_out: estimateTokens(raw),
  };
}
