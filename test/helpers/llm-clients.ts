import { createGroqClient } from "../../src/research/llm/groq.ts";
import { createOpenAiCompatibleClient } from "../../src/research/llm/openai-compatible.ts";
import type { RetryPolicy } from "../../src/research/llm/retry.ts";
import type { LlmClient } from "../../src/research/llm/types.ts";
import type { ChatServer } from "../fixtures/chat-server.ts";

/** A retry policy whose waits are recorded instead of slept, so tests check them without timing. */
export function recordingPolicy(extra: Partial<RetryPolicy> = {}): RetryPolicy & { waits: number[] } {
  const waits: number[] = [];
  return {
    retries: 3,
    baseDelayMs: 10,
    maxDelayMs: 100,
    waits,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  };
}

/** Both LLM clients against one chat fixture, named, each with its key. */
export const bothClients = (s: ChatServer, retry: RetryPolicy): [string, LlmClient][] => [
  ["groq", createGroqClient({ apiKey: "gsk_test", baseUrl: s.groqBase, retry })],
  ["openai-compatible", createOpenAiCompatibleClient({ baseUrl: s.openaiBase, apiKey: "sk-local", retry })],
];

/** The smallest conversation a call can carry. */
export const HI = [{ role: "user" as const, content: "hi" }];
