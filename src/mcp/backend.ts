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
  /** Remote: the Idempotency-Key to send (a client's own, so its retry rejoins the run); a fresh one otherwise. */
  idempotencyKey?: string;
  /** Remote: each answer's headers (a refusal's Retry-After is not in its envelope). */
  onHeaders?(headers: Headers): void;
}

/**
 * What the MCP tools run on: this machine's engine (local) or a research-query server
 * (remote). `research` resolves the run's envelope whatever its status, and throws only an
 * AppError when there is no envelope to give (a server out of reach, too many calls at once)
 * or the call was cancelled. Which tools a mode offers is the TOOLS table's `modes` (tools.ts).
 */
interface BackendBase {
  research(question: string, call: ResearchCall): Promise<Envelope>;
  /** Said after every failed research result: what this backend lacks that could have answered (local mode without a database). */
  readonly note?: string;
  close(): Promise<void>;
}

export interface LocalBackend extends BackendBase {
  readonly mode: "local";
  extract(url: string, signal: AbortSignal): Promise<ExtractResult>;
}

export interface RemoteBackend extends BackendBase {
  readonly mode: "remote";
}

export type McpBackend = LocalBackend | RemoteBackend;
export type McpMode = McpBackend["mode"];
