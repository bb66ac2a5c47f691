import type { Envelope, Source, Writer } from "../../contract/envelope.ts";
import type { Progress, StreamEvent } from "../../contract/events.ts";
import type { RunRow, TimelineEvent } from "../../store/types.ts";
import type { Sequenced } from "../run-log.ts";

/** The envelope of a run that has ended, as the store keeps it. */
export function storedEnvelope(run: RunRow, writer: Writer): Envelope {
  return {
    request_id: run.id,
    status: run.status === "ok" ? "ok" : "error",
    answer: run.answer,
    sources: run.sources,
    usage: { latency_ms: run.latencyMs ?? 0, tokens_in: run.tokensIn, tokens_out: run.tokensOut },
    errors: run.errors,
    writer: run.writer ?? writer,
    ...(run.verification ? { verification: run.verification } : {}),
  };
}

/**
 * The stream of a run that has ended, rebuilt from its stored timeline with the ids it was
 * first sent with (README "Safe retries"): the answer's deltas come back from the answer
 * entry's text and `parts`, the final event from the stored outcome. A run recorded before
 * events had ids is numbered in timeline order; a run cut short by a crash (no timeline
 * tail) ends with its recorded errors and a final.
 */
export function storedStream(run: RunRow, timeline: TimelineEvent[], writer: Writer): Sequenced[] {
  const out: Sequenced[] = [];
  let next = 1;
  const add = (event: StreamEvent, seq?: unknown) => {
    const s = typeof seq === "number" ? seq : next;
    out.push({ seq: s, event });
    next = s + 1;
  };
  for (const t of timeline) {
    const { seq, ...data } = t.data;
    switch (t.type) {
      case "accepted":
        add({ event: "progress", data: { stage: "planning", message: "Run accepted", request_id: run.id } }, seq);
        break;
      case "progress":
        add({ event: "progress", data: data as Progress }, seq);
        break;
      case "source":
        add({ event: "source", data: data.source as Source }, seq);
        break;
      case "answer":
        replayAnswer(data, seq, add);
        break;
      case "error":
        add({ event: "error", data: { code: String(data.code), message: String(data.message) } }, seq);
        break;
      case "final":
        add({ event: "final", data: storedEnvelope(run, writer) }, seq);
        break;
    }
  }
  if (out.at(-1)?.event.event !== "final") {
    for (const err of run.errors) add({ event: "error", data: err });
    add({ event: "final", data: storedEnvelope(run, writer) });
  }
  return out;
}

function replayAnswer(data: Record<string, unknown>, seq: unknown, add: (e: StreamEvent, seq?: unknown) => void): void {
  const text = typeof data.text === "string" ? data.text : "";
  const parts = Array.isArray(data.parts) ? (data.parts as [number, number][]) : [];
  if (!parts.length) {
    if (text) add({ event: "answer", data: { delta: text } }, seq);
    return;
  }
  let from = 0;
  for (const [s, end] of parts) {
    add({ event: "answer", data: { delta: text.slice(from, end) } }, s);
    from = end;
  }
}
