import { type Static, Type as T, type TSchema } from "@sinclair/typebox";
import { PlanSchema } from "./auth.ts";
import { SourceSchema, VerificationSchema, WriterSchema } from "./envelope.ts";
import { ErrorItemSchema } from "./errors.ts";
import { StageSchema } from "./events.ts";
import { Day, NullableTimestamp, RequestId, Timestamp } from "./formats.ts";

/**
 * The API Console's payloads (README "The API", /api/console/*, session cookie only): keys,
 * the usage report, a run's timeline. They describe what the routes return today,
 * extra fields included; clients ignore fields they do not recognise.
 */

/** A full API key: rq- and 32 base64url characters (24 random bytes). */
export const KEY_PATTERN = "^rq-[A-Za-z0-9_-]{32}$";

export const KeyStatusSchema = T.Union([T.Literal("active"), T.Literal("revoked")], {
  description: "a key is active from creation until revoked; a revoked key stays revoked",
});

/** A key as the Console lists it: never the full key, never its hash. */
export const KeyRecordSchema = T.Object(
  {
    id: T.String(),
    name: T.Union([T.String(), T.Null()], { description: "the label given at creation, or null" }),
    prefix: T.String({ description: "the first 12 characters of the key (rq- and 9 more), to tell keys apart" }),
    status: KeyStatusSchema,
    created_at: Timestamp(),
    last_used_at: NullableTimestamp("the last call that presented it while active (to the minute); null if never used"),
    revoked_at: NullableTimestamp("null while active"),
  },
  { description: "an API key record" },
);

/** The most keys one answer of GET /api/console/keys carries; `next` pages on. */
export const KEY_LIST_PAGE = 100;

/** GET /api/console/keys: newest first, a page at a time. */
export const KeyListSchema = T.Object(
  {
    keys: T.Array(KeyRecordSchema, {
      maxItems: KEY_LIST_PAGE,
      description: `newest first, at most ${KEY_LIST_PAGE} from ?from=`,
    }),
    next: T.Union([T.String(), T.Null()], {
      description: "the ?from= of the following (older) keys (a key's id); null after the last",
    }),
  },
  { description: "the account's keys, a page at a time" },
);

/** Body of POST /api/console/keys; an empty or absent body is fine. */
export const CreateKeyBodySchema = T.Object(
  {
    name: T.Optional(T.String({ maxLength: 100, description: "a label, at most 100 characters" })),
  },
  { description: "{name?}: a label for the key" },
);

/** POST /api/console/keys 201: the only answer that ever carries the full key. */
export const CreatedKeySchema = T.Object(
  {
    id: T.String(),
    name: T.Union([T.String(), T.Null()]),
    key: T.String({
      pattern: KEY_PATTERN,
      description: "the full key, shown this once: rq- and 32 base64url characters",
    }),
    prefix: T.String({ description: "the first 12 characters of key" }),
    status: KeyStatusSchema,
    created_at: Timestamp(),
  },
  { description: "a new key; store it now, it cannot be shown again" },
);

/** DELETE /api/console/keys/{key_id} 200; revoking again answers the same record. */
export const RevokedKeySchema = T.Object(
  {
    id: T.String(),
    status: T.Literal("revoked"),
    revoked_at: Timestamp("when it was first revoked"),
  },
  { description: "the revoked key" },
);

export const RunStatusSchema = T.Union([T.Literal("running"), T.Literal("ok"), T.Literal("error")], {
  description: "running until the run finishes; then ok or error",
});
export const OriginSchema = T.Union([T.Literal("api"), T.Literal("app"), T.Literal("cli")], {
  description: "api: a query endpoint with a key; app: the web client by session",
});

/** One day of the current month. */
export const UsageDaySchema = T.Object(
  {
    date: Day(),
    calls: T.Integer({ minimum: 0 }),
    ok: T.Integer({ minimum: 0 }),
    error: T.Integer({ minimum: 0 }),
  },
  { description: "accepted calls of one day, by status" },
);

/** One of the last 50 calls. */
export const RecentRunSchema = T.Object(
  {
    request_id: RequestId(),
    created_at: Timestamp(),
    status: RunStatusSchema,
    origin: OriginSchema,
    endpoint: T.String({ description: "the path called, e.g. /api/query" }),
    key_prefix: T.Union([T.String(), T.Null()], { description: "the key's display prefix; null for the web client" }),
    latency_ms: T.Union([T.Integer({ minimum: 0 }), T.Null()], { description: "null while running" }),
    query: T.String(),
  },
  { description: "an accepted call" },
);

/** One measure of the storage allowance. */
const StorageMeasure = (description: string) =>
  T.Object(
    {
      limit: T.Integer({ minimum: 0 }),
      used: T.Integer({ minimum: 0 }),
      remaining: T.Integer({ minimum: 0 }),
    },
    { description },
  );

/** GET /api/console/usage. A call is an accepted call (a run); refusals are not counted. */
export const UsageSchema = T.Object(
  {
    plan: PlanSchema,
    period: T.Object(
      { start: Timestamp(), end: Timestamp("exclusive: the start of the next month") },
      { description: "the current calendar month (UTC)" },
    ),
    allowance: T.Object(
      {
        limit: T.Integer({ minimum: 0 }),
        used: T.Integer({ minimum: 0 }),
        remaining: T.Integer({ minimum: 0 }),
      },
      { description: "research runs of the plan this month" },
    ),
    storage: T.Object(
      {
        documents: StorageMeasure("documents kept in the account's own collections"),
        bytes: StorageMeasure("bytes of text kept in the account's own collections (UTF-8)"),
      },
      {
        description:
          "extra: the plan's storage allowance for the account's own collections; files still being imported count at their upload size",
      },
    ),
    totals: T.Object(
      {
        calls: T.Integer({ minimum: 0 }),
        ok: T.Integer({ minimum: 0 }),
        error: T.Integer({ minimum: 0 }),
      },
      { description: "accepted calls this month" },
    ),
    per_day: T.Array(UsageDaySchema, { description: "every day of the month up to today, zeros included" }),
    recent: T.Array(RecentRunSchema, { maxItems: 50, description: "the last 50 calls, newest first" }),
  },
  { description: "the Console's usage report" },
);

/** One entry of a run's timeline: the event's data plus its time and type; which fields come depends on the type. */
export const TimelineEntrySchema = T.Object(
  {
    at_ms: T.Integer({ minimum: 0, description: "milliseconds since acceptance" }),
    type: T.String({ description: "accepted, progress, source, error, answer, final" }),
    seq: T.Optional(
      T.Integer({
        minimum: 1,
        description:
          "the event's sequence in the stream (its id's); absent on runs recorded before events were numbered",
      }),
    ),
    origin: T.Optional(OriginSchema),
    endpoint: T.Optional(T.String({ description: "on accepted entries: the path called" })),
    stage: T.Optional(StageSchema),
    message: T.Optional(T.String({ description: "on progress and error entries" })),
    code: T.Optional(T.String({ description: "on error entries" })),
    source: T.Optional(SourceSchema),
    chars: T.Optional(T.Integer({ minimum: 0, description: "on answer entries: the answer's length" })),
    text: T.Optional(T.String({ description: "on answer entries: the answer, its deltas joined" })),
    status: T.Optional(
      T.Union([T.Literal("ok"), T.Literal("error")], { description: "on final entries: the envelope's status" }),
    ),
    latency_ms: T.Optional(T.Integer({ minimum: 0, description: "on final entries" })),
  },
  {
    additionalProperties: true,
    description: "a timeline entry; a progress entry carries its event's details too (e.g. queries)",
  },
);

/** GET /api/console/runs/{request_id}. */
export const RunTimelineSchema = T.Object(
  {
    request_id: RequestId(),
    status: RunStatusSchema,
    query: T.String(),
    origin: OriginSchema,
    endpoint: T.String(),
    created_at: Timestamp(),
    finished_at: NullableTimestamp("null while running"),
    latency_ms: T.Union([T.Integer({ minimum: 0 }), T.Null()], { description: "null while running" }),
    writer: T.Union([WriterSchema, T.Null()], { description: "null while running or if the run was interrupted" }),
    answer: T.Union([T.String(), T.Null()], { description: "Markdown; null unless status is ok" }),
    events: T.Array(TimelineEntrySchema, { description: "in order; answer deltas are summed into one answer entry" }),
    sources: T.Array(SourceSchema, { maxItems: 5 }),
    verification: T.Optional(
      T.Union([VerificationSchema, T.Null()], {
        description:
          "the claim check's counts, as on the run's envelope; null while running, for a failed run and for runs recorded before the check",
      }),
    ),
    errors: T.Array(ErrorItemSchema),
    usage: T.Object(
      { tokens_in: T.Integer({ minimum: 0 }), tokens_out: T.Integer({ minimum: 0 }) },
      { description: "token estimates" },
    ),
    trace_id: T.Union([T.String({ pattern: "^[0-9a-f]{32}$" }), T.Null()], {
      description:
        "the OpenTelemetry trace of the run (32 hex digits), to look up in the tracing backend; null when the server exported no traces then",
    }),
  },
  { additionalProperties: true, description: "the timeline of a call" },
);

export type KeyStatus = Static<typeof KeyStatusSchema>;
export type KeyRecord = Static<typeof KeyRecordSchema>;
export type KeyList = Static<typeof KeyListSchema>;
export type CreatedKey = Static<typeof CreatedKeySchema>;
export type RevokedKey = Static<typeof RevokedKeySchema>;
export type RunStatus = Static<typeof RunStatusSchema>;
export type Origin = Static<typeof OriginSchema>;
export type UsageDay = Static<typeof UsageDaySchema>;
export type RecentRun = Static<typeof RecentRunSchema>;
export type Usage = Static<typeof UsageSchema>;
export type RunTimeline = Static<typeof RunTimelineSchema>;

/** This file's named schemas (components.schemas, in this order): a new one is added here only. */
export const CONSOLE_SCHEMAS = {
  KeyStatus: KeyStatusSchema,
  KeyRecord: KeyRecordSchema,
  KeyList: KeyListSchema,
  CreateKeyBody: CreateKeyBodySchema,
  CreatedKey: CreatedKeySchema,
  RevokedKey: RevokedKeySchema,
  RunStatus: RunStatusSchema,
  Origin: OriginSchema,
  UsageDay: UsageDaySchema,
  RecentRun: RecentRunSchema,
  Usage: UsageSchema,
  TimelineEntry: TimelineEntrySchema,
  RunTimeline: RunTimelineSchema,
} as const satisfies Record<string, TSchema>;
