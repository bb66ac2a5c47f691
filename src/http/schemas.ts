import { Type as T } from "@sinclair/typebox";

/** Response schemas of the contract, used by /openapi.json (and as documentation). */
export const ErrorItemSchema = T.Object({ code: T.String(), message: T.String() });
export const ErrorBodySchema = T.Object({ errors: T.Array(ErrorItemSchema) });

export const SourceSchema = T.Object({
  id: T.String({ pattern: "^S[1-5]$" }), title: T.String(), url: T.String({ format: "uri" }),
  type: T.Union([T.Literal("web"), T.Literal("academic")]), provider: T.String(), snippet: T.String(),
  published_at: T.Optional(T.String()), authors: T.Optional(T.Array(T.String())), venue: T.Optional(T.String()), doi: T.Optional(T.String()),
}, { additionalProperties: true, description: "Clients ignore fields they do not recognise." });

export const EnvelopeSchema = T.Object({
  request_id: T.String({ format: "uuid" }),
  status: T.Union([T.Literal("ok"), T.Literal("error")]),
  answer: T.Union([T.String(), T.Null()], { description: "Markdown citing [S1]..[S5]; null when status is error" }),
  sources: T.Array(SourceSchema, { maxItems: 5 }),
  usage: T.Object({ latency_ms: T.Integer(), tokens_in: T.Integer(), tokens_out: T.Integer() }),
  errors: T.Array(ErrorItemSchema),
  writer: T.Optional(T.Union([T.Literal("llm"), T.Literal("extractive")])),
}, { additionalProperties: true });

export const UsageSchema = T.Object({
  plan: T.String(),
  period: T.Object({ start: T.String(), end: T.String() }),
  allowance: T.Object({ limit: T.Integer(), used: T.Integer(), remaining: T.Integer() }),
  totals: T.Object({ calls: T.Integer(), ok: T.Integer(), error: T.Integer() }),
  per_day: T.Array(T.Object({ date: T.String(), calls: T.Integer(), ok: T.Integer(), error: T.Integer() })),
  recent: T.Array(T.Object({
    request_id: T.String(), created_at: T.String(), status: T.String(), origin: T.String(), endpoint: T.String(),
    key_prefix: T.Union([T.String(), T.Null()]), latency_ms: T.Union([T.Integer(), T.Null()]), query: T.String(),
  })),
});

export const RunTimelineSchema = T.Object({
  request_id: T.String(), status: T.String(), query: T.String(), origin: T.String(), created_at: T.String(),
  finished_at: T.Union([T.String(), T.Null()]), latency_ms: T.Union([T.Integer(), T.Null()]),
  events: T.Array(T.Object({ at_ms: T.Integer(), type: T.String() }, { additionalProperties: true })),
  sources: T.Array(SourceSchema), errors: T.Array(ErrorItemSchema),
}, { additionalProperties: true });
