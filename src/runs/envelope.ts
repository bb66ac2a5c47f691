import type { Envelope } from "../contract/envelope.ts";
import type { ErrorItem } from "../contract/errors.ts";

/** The envelope of a refusal (no run): zeros but latency, no writer. */
export function refusalEnvelope(requestId: string, startedAt: number, errors: ErrorItem[]): Envelope {
  return {
    request_id: requestId,
    status: "error",
    answer: null,
    sources: [],
    usage: { latency_ms: Math.round(performance.now() - startedAt), tokens_in: 0, tokens_out: 0 },
    errors,
  };
}
