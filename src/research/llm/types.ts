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
  /** When set, the call streams and each text delta is passed here as it arrives. */
  onDelta?: (text: string) => void;
}

export interface ChatResult {
  text: string;
}

/**
 * A chat-completions client (Groq through groq-sdk, or any OpenAI-compatible server).
 * Retries 429/5xx with backoff honouring Retry-After (never after a delta was emitted);
 * then throws LlmError.
 */
export interface LlmClient {
  readonly provider: "groq" | "openai";
  chat(req: ChatRequest): Promise<ChatResult>;
}
