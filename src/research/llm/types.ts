export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  signal: AbortSignal;
  temperature?: number;
  maxTokens?: number;
  /** The run's deadline (epoch ms): no wait for a retry or a token window may run past it. */
  deadline?: number;
  /** When set, the call streams and each text delta is passed here as it arrives. */
  onDelta?: (text: string) => void;
  /** Told of each retry (its number from 1, the failure's reason): the run's trace records them. */
  onRetry?: (attempt: number, reason: string) => void;
}

export interface ChatResult {
  text: string;
}

/**
 * A chat-completions client (Groq through groq-sdk, or any OpenAI-compatible server).
 * An answer counts only when the model finished it (finish_reason "stop"); what another
 * attempt can fix is retried within the run's deadline (never after a delta was emitted);
 * anything else throws LlmError with the upstream's own reason.
 */
export interface LlmClient {
  readonly provider: "groq" | "openai";
  chat(req: ChatRequest): Promise<ChatResult>;
}
