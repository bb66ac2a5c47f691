import type { Envelope } from "../contract/envelope.ts";
import type { ExtractResult } from "../contract/mcp.ts";

/** A progress event of the run, as the MCP server passes it on to a client that asked. */
export interface RunProgress {
  stage: string;
  message: string;
}

export interface ResearchCall {
  /** The client's `notifications/cancelled` for this call: stop waiting. */
  signal: AbortSignal;
  onProgress(p: RunProgress): void;
}

/**
 * What the MCP tools run on: this machine's engine (local) or a research-query server
 * (remote). `research` resolves the run's envelope whatever its status, and throws only an
 * AppError when there is no envelope to give (a server out of reach) or the call was
 * cancelled. `extract` is there in local mode only.
 */
export interface McpBackend {
  readonly mode: "local" | "remote";
  research(question: string, call: ResearchCall): Promise<Envelope>;
  extract?(url: string, signal: AbortSignal): Promise<ExtractResult>;
  close(): Promise<void>;
}
