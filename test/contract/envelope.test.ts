import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { type Envelope, EnvelopeSchema, type Source, SourceSchema } from "../../src/contract/envelope.ts";
import { type StreamEvent, StreamEventSchema } from "../../src/contract/events.ts";
import { MAX_BODY_BYTES, MAX_QUERY_CHARS, QueryBodySchema } from "../../src/contract/query.ts";

/** The hand-written interfaces the contract types replace (src/research/types.ts, src/runs/envelope.ts at 41765d2). */
interface LegacySource {
  id: string;
  title: string;
  url: string;
  // "local", collection and doc_id: sources from the collections (README "The API").
  type: "web" | "academic" | "local";
  provider: string;
  snippet: string;
  published_at?: string;
  authors?: string[];
  venue?: string;
  doi?: string;
  collection?: string;
  doc_id?: string;
  // Sources of owned collections (README "Collections for a team").
  owner?: string | null;
  withheld?: true;
  read?: "page" | "abstract";
  // Claims you can check (README "Claims you can check").
  evidence?: { claim: string; quote: string; support: number }[];
}
interface LegacyEnvelope {
  request_id: string;
  status: "ok" | "error";
  answer: string | null;
  sources: LegacySource[];
  usage: { latency_ms: number; tokens_in: number; tokens_out: number };
  errors: { code: string; message: string }[];
  writer?: "llm" | "extractive";
  verification?: { claims: number; cited: number; supported: number; unsupported: number; coverage: number };
}
/** Assignable both ways, with the same property names (extra optional fields would pass the first test alone). */
type Mutual<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A] extends [keyof B]
      ? [keyof B] extends [keyof A]
        ? true
        : false
      : false
    : false
  : false;
// Compile-time (bun run typecheck): the Static types can replace the interfaces, both ways.
const sameSource: Mutual<Source, LegacySource> = true;
const sameEnvelope: Mutual<Envelope, LegacyEnvelope> = true;
const sameUsage: Mutual<Envelope["usage"], LegacyEnvelope["usage"]> = true;

const source: Source = {
  id: "S1",
  title: "Base editing",
  url: "https://example.org/base-editing",
  type: "academic",
  provider: "openalex",
  snippet: "…",
  published_at: "2023-04-01",
  authors: ["A. Author"],
  venue: "Nature",
  doi: "10.1000/xyz",
  read: "abstract",
};
const ok: Envelope = {
  request_id: "0b7e4c1e-8a53-4a5e-9d0f-2f1d3c4b5a69",
  status: "ok",
  answer: "Base editors change one letter [S1].",
  sources: [source],
  usage: { latency_ms: 8123, tokens_in: 2410, tokens_out: 96 },
  errors: [],
  writer: "llm",
};
/** What a refusal on /api/query carries: zeros but latency, no writer. */
const refusal: Envelope = {
  request_id: "9a0c3c2e-1111-4e5e-8d0f-2f1d3c4b5a69",
  status: "error",
  answer: null,
  sources: [],
  usage: { latency_ms: 1, tokens_in: 0, tokens_out: 0 },
  errors: [{ code: "missing_api_key", message: "send a key" }],
};

describe("envelope", () => {
  test("Static types are interchangeable with the interfaces they replace", () => {
    expect([sameSource, sameEnvelope, sameUsage]).toEqual([true, true, true]);
  });

  test("accepts an ok envelope, a refusal envelope, and fields it does not know", () => {
    expect(Value.Check(EnvelopeSchema, ok)).toBe(true);
    expect(Value.Check(EnvelopeSchema, refusal)).toBe(true);
    expect(Value.Check(EnvelopeSchema, { ...ok, extra: 1, sources: [{ ...source, collection: "x" }] })).toBe(true);
    expect(Value.Check(SourceSchema, { ...source, type: "web", url: "local:papers/123" })).toBe(true);
  });

  test("rejects malformed envelopes", () => {
    const { usage: _u, ...noUsage } = ok;
    const bad: unknown[] = [
      noUsage,
      { ...ok, status: "done" },
      { ...ok, answer: 42 },
      { ...ok, request_id: "not-a-uuid" },
      { ...ok, sources: Array.from({ length: 6 }, (_, i) => ({ ...source, id: `S${(i % 5) + 1}` })) },
      { ...ok, sources: [{ ...source, id: "S9" }] },
      { ...ok, sources: [{ ...source, type: "blog" }] },
      { ...ok, errors: [{ code: "x" }] },
      { ...ok, writer: "human" },
      { ...ok, usage: { latency_ms: 1.5, tokens_in: 0, tokens_out: 0 } },
    ];
    for (const b of bad) expect([b, Value.Check(EnvelopeSchema, b)]).toEqual([b, false]);
  });

  test("required fields", () => {
    expect(EnvelopeSchema.required as string[] | undefined).toEqual([
      "request_id",
      "status",
      "answer",
      "sources",
      "usage",
      "errors",
    ]);
    expect(SourceSchema.required as string[] | undefined).toEqual([
      "id",
      "title",
      "url",
      "type",
      "provider",
      "snippet",
    ]);
  });
});

describe("stream events", () => {
  test("each event of a run matches StreamEventSchema; wrong data does not", () => {
    const run: StreamEvent[] = [
      { event: "progress", data: { stage: "planning", message: "Run accepted", request_id: ok.request_id } },
      { event: "source", data: source },
      { event: "answer", data: { delta: "Base editors" } },
      { event: "error", data: { code: "no_sources", message: "nothing usable" } },
      { event: "final", data: ok },
    ];
    for (const e of run) expect(Value.Check(StreamEventSchema, e)).toBe(true);
    expect(Value.Check(StreamEventSchema, { event: "progress", data: { stage: "thinking", message: "x" } })).toBe(
      false,
    );
    expect(Value.Check(StreamEventSchema, { event: "answer", data: source })).toBe(false);
    expect(Value.Check(StreamEventSchema, { event: "final", data: { delta: "x" } })).toBe(false);
    expect(Value.Check(StreamEventSchema, { event: "other", data: {} })).toBe(false);
  });
});

describe("query body", () => {
  test("shape only: the reader checks length in code points and white space", () => {
    expect(Value.Check(QueryBodySchema, { query: "q", model: "x", preferences: { a: 1 }, unknown: true })).toBe(true);
    expect(Value.Check(QueryBodySchema, { query: 1 })).toBe(false);
    expect(Value.Check(QueryBodySchema, {})).toBe(false);
    expect(QueryBodySchema.required as string[] | undefined).toEqual(["query"]);
    expect([MAX_QUERY_CHARS, MAX_BODY_BYTES]).toEqual([2000, 65536]);
  });
});
