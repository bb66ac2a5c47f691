import { AppError } from "../../errors.ts";
import { estimateTokens } from "../engine/estimate.ts";
import type { Llm } from "../llm/factory.ts";
import { LlmError } from "../llm/llm-error.ts";
import { createThinkFilter, stripThinking } from "../llm/think-filter.ts";
import { writerMessages, type WriterSource } from "./prompt.ts";

export interface Written { text: string; tokens_in: number; tokens_out: number }

/** Streams the answer from the writer's model; deltas inside <think> never reach the client. */
export async function writeWithLlm(o: { question: string; language: string; sources: WriterSource[]; llm: Llm; signal: AbortSignal; onDelta: (t: string) => void }): Promise<Written> {
  const messages = writerMessages(o.question, o.language, o.sources);
  const filter = createThinkFilter(o.onDelta);
  try {
    const r = await o.llm.client.chat({ model: o.llm.model, messages, signal: o.signal, temperature: 0.2, maxTokens: 2048, onDelta: (t) => filter.push(t) });
    filter.end();
    const text = stripThinking(r.text).trim();
    if (!text) throw new AppError("llm_failed", "the model returned an empty answer");
    return { text, tokens_in: estimateTokens(messages.map((m) => m.content).join("\n")), tokens_out: estimateTokens(r.text) };
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (o.signal.aborted) throw e;
    throw new AppError("llm_failed", `the writer's model failed: ${e instanceof LlmError ? e.message : "unexpected error"}`);
  }
}
