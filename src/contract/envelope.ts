import { type Static, Type as T, type TSchema } from "@sinclair/typebox";
import { ErrorItemSchema } from "./errors.ts";
import { RequestId } from "./formats.ts";

/**
 * The response envelope and the source object (README "The API"): the body of
 * /api/query, the data of the stream's `final` event, and what a run records.
 */

export const SourceTypeSchema = T.Union([T.Literal("web"), T.Literal("academic"), T.Literal("local")], {
  description:
    "found by a web search provider, in an academic database, or in one of the service's own collections (local)",
});

/** What the check made of one citation (README "Claims you can check"). */
export const VerdictSchema = T.Union(
  [T.Literal("supported"), T.Literal("partial"), T.Literal("unsupported"), T.Literal("contradicted")],
  {
    description:
      "supported: support ≥ 0.45; partial: some of the claim is backed, its marker stays; unsupported: the source doesn't back it, its marker was removed; contradicted: the quote says otherwise, its marker was removed and the item stays so a reader sees what the source says. Absent on runs checked before verdicts",
  },
);
export type Verdict = Static<typeof VerdictSchema>;

/** One claim of the answer that cites a source, and the words of that source that back it. */
export const EvidenceSchema = T.Object(
  {
    claim: T.String({
      description: "the claim (sentence or list item) as it stands in the answer, without its markers",
    }),
    quote: T.String({
      maxLength: 400,
      description:
        "verbatim words of what was read of this source (one or two sentences, or a stretch of a long one), never paraphrased",
    }),
    support: T.Number({
      minimum: 0,
      maximum: 1,
      description:
        'how well the quote backs the claim; 0.45 and above counts as supported (README "Claims you can check")',
    }),
    verdict: T.Optional(VerdictSchema),
    recited: T.Optional(
      T.Literal(true, {
        description:
          "the check moved this claim's marker here from the source the writer cited, which did not back it; the verdict is this source's. Absent otherwise",
      }),
    ),
  },
  { description: "a claim citing this source and the quote that backs it" },
);

const EVIDENCE_DESCRIPTION =
  "extra field: each claim of the answer that cites this source, with the verbatim quote from what was read of it that backs the claim, a support score in [0, 1] and the verdict; in answer order. A citation the check found unsupported was removed from the answer and is not listed; one it found contradicted was removed too and is listed, with the quote that says otherwise. A claim whose marker the check moved here from a source that did not back it is listed with recited: true";

/** What the claim check found in the answer as a whole (README "Claims you can check"). */
export const VerificationSchema = T.Object(
  {
    claims: T.Integer({
      minimum: 0,
      description: "the answer's claims: sentences and list items (headings, the lead-in line and code aside)",
    }),
    cited: T.Integer({ minimum: 0, description: "claims that carried at least one citation as written" }),
    supported: T.Integer({
      minimum: 0,
      description: "claims with at least one citation whose quote backs them (support ≥ 0.45)",
    }),
    unsupported: T.Integer({
      minimum: 0,
      description: "claims whose every citation the check removed as unsupported: the sentence stays, uncited",
    }),
    coverage: T.Number({ minimum: 0, maximum: 1, description: "supported ÷ claims (0 for an answer with no claims)" }),
    contradicted: T.Optional(
      T.Integer({
        minimum: 0,
        description:
          "claims with a citation whose quote contradicts them (its marker removed; counted in unsupported too when no citation is left). Absent on runs checked before verdicts",
      }),
    ),
    recited: T.Optional(
      T.Integer({
        minimum: 0,
        description:
          "markers the check moved from a source that did not back the sentence to another source the run read that does (their evidence items carry recited: true)",
      }),
    ),
  },
  { description: "extra field: counts of the answer's claims and how many the sources' quotes back" },
);

/** A source as returned to clients; `id` matches the [S1]..[S5] markers of the answer. */
export const SourceSchema = T.Object(
  {
    id: T.String({ pattern: "^S[1-5]$", description: "S1..S5, numbered in order of first citation" }),
    title: T.String(),
    url: T.String({
      format: "uri",
      description: "the page or paper; for a local source the document's own URL, or local:<collection>/<doc_id>",
    }),
    type: SourceTypeSchema,
    provider: T.String({ description: "the search provider or database that found it, e.g. searxng, openalex, local" }),
    snippet: T.String(),
    published_at: T.Optional(T.String()),
    authors: T.Optional(T.Array(T.String())),
    venue: T.Optional(T.String()),
    doi: T.Optional(T.String()),
    collection: T.Optional(
      T.String({ description: "only on local sources: the collection the document was found in" }),
    ),
    doc_id: T.Optional(
      T.String({
        description:
          "only on local sources: the document's id in its collection (a JSONL record's id, or the file's path relative to the folder it was added from)",
      }),
    ),
    owner: T.Optional(
      T.Union([T.String(), T.Null()], {
        description:
          "only on local sources: the email of the collection's owner, null for a collection with no owner; with `collection` and `doc_id` it names the document in the app (names are unique per owner)",
      }),
    ),
    withheld: T.Optional(
      T.Literal(true, {
        description:
          "only on a local source of an earlier run whose collection this account can no longer read (made private, handed over or removed): title, url and snippet are placeholders, collection, doc_id and owner are left out, and the answer's lines that cited it are withheld too",
      }),
    ),
    read: T.Optional(
      T.Union([T.Literal("page"), T.Literal("abstract")], {
        description: "extra field: the answer drew on the full text (page) or the database's abstract",
      }),
    ),
    evidence: T.Optional(T.Array(EvidenceSchema, { description: EVIDENCE_DESCRIPTION })),
  },
  { additionalProperties: true, description: "A source object. Clients ignore fields they do not recognise." },
);

/** Token counts are estimates from text length, not model token counts. */
export const EnvelopeUsageSchema = T.Object(
  {
    latency_ms: T.Integer({ minimum: 0 }),
    tokens_in: T.Integer({ minimum: 0 }),
    tokens_out: T.Integer({ minimum: 0 }),
  },
  { description: "latency of the call, and token estimates from text length (zero on refusals)" },
);

export const WriterSchema = T.Union([T.Literal("llm"), T.Literal("extractive")], {
  description: "what wrote the answer: the model, or the extractive writer when no model is configured",
});

/** The body of /api/query (and of its refusals) and the data of the stream's final event. */
export const EnvelopeSchema = T.Object(
  {
    request_id: RequestId(),
    status: T.Union([T.Literal("ok"), T.Literal("error")], {
      description: "ok when the run completed; clients check status, not only the HTTP code",
    }),
    answer: T.Union([T.String(), T.Null()], { description: "Markdown citing [S1]..[S5]; null when status is error" }),
    sources: T.Array(SourceSchema, { maxItems: 5 }),
    usage: EnvelopeUsageSchema,
    errors: T.Array(ErrorItemSchema, {
      description: "empty on success but for a completed run's notices (kind notice: second_opinion_failed)",
    }),
    writer: T.Optional(WriterSchema),
    verification: T.Optional(VerificationSchema),
  },
  {
    additionalProperties: true,
    description:
      "The response envelope. `writer` is on every envelope of an accepted run; `verification` on every completed one (status ok).",
  },
);

export type SourceType = Static<typeof SourceTypeSchema>;
export type Source = Static<typeof SourceSchema>;
export type Writer = Static<typeof WriterSchema>;
export type Envelope = Static<typeof EnvelopeSchema>;
export type Evidence = Static<typeof EvidenceSchema>;
export type Verification = Static<typeof VerificationSchema>;

/** This file's named schemas (components.schemas, in this order): a new one is added here only. */
export const ENVELOPE_SCHEMAS = {
  Envelope: EnvelopeSchema,
  EnvelopeUsage: EnvelopeUsageSchema,
  Source: SourceSchema,
  Evidence: EvidenceSchema,
  Verdict: VerdictSchema,
  Verification: VerificationSchema,
  Writer: WriterSchema,
} as const satisfies Record<string, TSchema>;
