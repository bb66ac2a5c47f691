import { type Static, Type as T, type TSchema } from "@sinclair/typebox";
import { type Envelope, EnvelopeSchema, type Source, SourceSchema } from "./envelope.ts";
import { type ErrorItem, ErrorItemSchema } from "./errors.ts";

/**
 * The events of /api/query/stream and /api/v1/research/stream (README "The API", "Stream
 * events"). Each is `event: <name>` with one `data:` line of JSON. The first event goes
 * out as soon as the call is accepted; while nothing else is sent, a `: keep-alive`
 * comment goes out at least every 15 s; `final` is always the last event. The three key
 * failures arrive as `error` then `final` on HTTP 200 (README "The API", stream events).
 */

/** The stages a run reaches, in order; each emits at least one progress event. */
export const StageSchema = T.Union(
  [T.Literal("planning"), T.Literal("searching"), T.Literal("reading"), T.Literal("writing"), T.Literal("verifying")],
  { description: "planning → searching → reading → writing → verifying (the claim check, before final)" },
);

/** `progress`: at least one per stage the run reaches; more fields may come along. */
export const ProgressSchema = T.Object(
  {
    stage: StageSchema,
    message: T.String({ description: "what the engine is doing, for people" }),
  },
  { additionalProperties: true, description: "data of a progress event; e.g. the first carries request_id" },
);

/** `answer`: answer text as the writer produces it. */
export const AnswerDeltaSchema = T.Object(
  {
    delta: T.String(),
  },
  { description: "data of an answer event: the next piece of the answer's Markdown" },
);

/** The event names, in the order a successful run first sends them. */
export const STREAM_EVENT_NAMES = ["progress", "source", "answer", "error", "final"] as const;
export type StreamEventName = (typeof STREAM_EVENT_NAMES)[number];

/** What each event's data is (the `source` data may be renumbered in the final envelope). */
export const STREAM_EVENT_DATA = {
  progress: ProgressSchema,
  source: SourceSchema,
  answer: AnswerDeltaSchema,
  error: ErrorItemSchema,
  final: EnvelopeSchema,
} as const satisfies Record<StreamEventName, unknown>;

const event = <N extends StreamEventName>(name: N, description: string) =>
  T.Object({ event: T.Literal(name), data: STREAM_EVENT_DATA[name] }, { description });

/** One event as a JSON value: its name and its parsed data. */
export const StreamEventSchema = T.Union(
  [
    event("progress", "progress: {stage, message, …}"),
    event("source", "source: a source object as soon as it is chosen"),
    event("answer", "answer: {delta}"),
    event("error", "error: {code, message}; the key failures, and the reasons of a failed run, before final"),
    event("final", "final: the response envelope; always the last event"),
  ],
  { description: "An event of the stream: `event: <event>` and `data: <JSON of data>`" },
);

/** An event's `id:`, `<request_id>:<sequence>`: what Last-Event-ID names to resume after it. */
export const EVENT_ID_PATTERN = "^[0-9a-fA-F-]{36}:[0-9]+$";

/** One message of the stream as an SSE parser yields it: the event, and the `id:` line every event has. */
export const StreamMessageSchema = T.Intersect(
  [
    StreamEventSchema,
    T.Object({
      id: T.String({
        pattern: EVENT_ID_PATTERN,
        description:
          "`<request_id>:<sequence>`: the run's request_id and the event's number, from 1, one more for each event; send it as Last-Event-ID to resume after it",
      }),
    }),
  ],
  {
    description:
      "A message of the stream: `id: <request_id>:<sequence>`, `event: <event>` and one `data:` line of JSON. Before the first message the stream sends a `retry:` hint; `: keep-alive` comment lines come between messages.",
  },
);

export type Stage = Static<typeof StageSchema>;
/** Progress data carries details beyond stage and message (counts, hosts, timings…). */
export type Progress = Static<typeof ProgressSchema> & { [detail: string]: unknown };
export type AnswerDelta = Static<typeof AnswerDeltaSchema>;

/** The stream, as a discriminated union on `event`. */
export type StreamEvent =
  | { event: "progress"; data: Progress }
  | { event: "source"; data: Source }
  | { event: "answer"; data: AnswerDelta }
  | { event: "error"; data: ErrorItem }
  | { event: "final"; data: Envelope };

/** The SSE text of one event, as the server writes it; `id` is `<request_id>:<sequence>`. */
export function sseEventText(e: StreamEvent, id?: string): string {
  return `${id ? `id: ${id}\n` : ""}event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/** The `id:` of an event: the run's request id and the event's sequence number (from 1). */
export function eventId(requestId: string, seq: number): string {
  return `${requestId}:${seq}`;
}

/** The run and sequence a Last-Event-ID names, or null if it isn't one of ours. */
export function parseEventId(id: string): { requestId: string; seq: number } | null {
  const m = /^([0-9a-f-]{36}):(\d{1,9})$/i.exec(id);
  return m ? { requestId: m[1]!.toLowerCase(), seq: Number(m[2]) } : null;
}

const EXAMPLE_ID = "0b7e4c1e-8a53-4a5e-9d0f-2f1d3c4b5a69";
const EXAMPLE_ANSWER = "Base editors change one DNA letter [S1].";
const EXAMPLE_SOURCE: Source = {
  id: "S1",
  title: "Base editing",
  url: "https://example.org/base-editing",
  type: "web",
  provider: "searxng",
  snippet: "…",
};

const EXAMPLE_EVENTS: StreamEvent[] = [
  { event: "progress", data: { stage: "planning", message: "Run accepted", request_id: EXAMPLE_ID } },
  { event: "progress", data: { stage: "searching", message: "Searching the web and academic databases" } },
  { event: "source", data: EXAMPLE_SOURCE },
  { event: "answer", data: { delta: EXAMPLE_ANSWER } },
  {
    event: "final",
    data: {
      request_id: EXAMPLE_ID,
      status: "ok",
      answer: EXAMPLE_ANSWER,
      sources: [EXAMPLE_SOURCE],
      usage: { latency_ms: 8123, tokens_in: 2410, tokens_out: 96 },
      errors: [],
      writer: "llm",
    },
  },
];

/** A short example of a successful stream, for the OpenAPI document: the retry hint, numbered events, a keep-alive. */
export const STREAM_EXAMPLE = EXAMPLE_EVENTS.reduce(
  (text, e, i) => `${text}${i === 4 ? ": keep-alive\n" : ""}${sseEventText(e, eventId(EXAMPLE_ID, i + 1))}`,
  "retry: 1000\n",
);

/** This file's named schemas (components.schemas, in this order): a new one is added here only. */
export const EVENT_SCHEMAS = {
  Stage: StageSchema,
  Progress: ProgressSchema,
  AnswerDelta: AnswerDeltaSchema,
  StreamEvent: StreamEventSchema,
  StreamMessage: StreamMessageSchema,
} as const satisfies Record<string, TSchema>;
