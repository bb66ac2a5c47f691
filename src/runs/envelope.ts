import type { ErrorItem } from "../errors.ts";
import type { Source } from "../research/types.ts";

/** The response envelope (SPEC §2): body of /api/query and data of the stream's final event. */
export interface Envelope {
  request_id: string;
  status: "ok" | "error";
  answer: string | null;
  sources: Source[];
  usage: { latency_ms: number; tokens_in: number; tokens_out: number };
  errors: ErrorItem[];
  /** Only on accepted runs (CONTRACT §5). */
  writer?: "llm" | "extractive";
}

/** The envelope of a refusal (no run): zeros but latency, no writer. */
export function refusalEnvelope(requestId: string, startedAt: number, errors: ErrorItem[]): Envelope {
  return {
    request_id: requestId, status: "error", answer: null, sources: [],
    usage: { latency_ms: Math.round(performance.now() - startedAt), tokens_in: 0, tokens_out: 0 }, errors,
  };
}
