import { Type as T, type TSchema } from "@sinclair/typebox";
import { AuditEventSchema } from "./audit.ts";
import { PlanSchema } from "./auth.ts";
import { KeyRecordSchema } from "./console.ts";
import { NullableTimestamp, Timestamp } from "./formats.ts";

/**
 * A person leaving with their data (README "When a person leaves"): the export of
 * GET /api/v1/me/export and the body of DELETE /api/v1/me.
 */

/** DELETE /api/v1/me: the account's password; an identity-provider account sends none. */
export const DeleteAccountBodySchema = T.Object(
  {
    password: T.Optional(
      T.String({ maxLength: 256, description: "the account's password (none for an identity-provider account)" }),
    ),
  },
  { description: "the password that proves it is the account's holder" },
);

const ExportedDocumentSchema = T.Object(
  {
    doc_id: T.String(),
    title: T.String(),
    url: T.Union([T.String(), T.Null()]),
    path: T.Union([T.String(), T.Null()]),
    format: T.String(),
    added_at: Timestamp(),
    text: T.String({ description: "the kept text, its passages joined by blank lines" }),
  },
  { description: "a document with its text" },
);

const ExportedRunSchema = T.Object(
  {
    request_id: T.String(),
    created_at: Timestamp(),
    finished_at: NullableTimestamp("null while running"),
    origin: T.String(),
    endpoint: T.String(),
    key_prefix: T.Union([T.String(), T.Null()]),
    query: T.String(),
    status: T.String(),
    answer: T.Union([T.String(), T.Null()]),
    sources: T.Array(T.Object({}, { additionalProperties: true }), { description: "as the run's envelope had them" }),
    errors: T.Array(T.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true, description: "a run with its answer and sources" },
);

export const AccountExportSchema = T.Object(
  {
    exported_at: Timestamp(),
    account: T.Object({
      id: T.String(),
      email: T.String(),
      plan: PlanSchema,
      created_at: Timestamp(),
      email_status: T.String({ description: "proven, unproven or pending" }),
    }),
    keys: T.Array(KeyRecordSchema, { description: "every key, newest first: prefixes, never a key or its hash" }),
    usage: T.Array(T.Object({ month: T.String(), runs: T.Integer({ minimum: 0 }) }), {
      description: "runs counted against the allowance, per month",
    }),
    runs: T.Array(ExportedRunSchema, { description: "every run, oldest first" }),
    collections: T.Array(
      T.Object({
        name: T.String(),
        visibility: T.String(),
        created_at: Timestamp(),
        documents: T.Array(ExportedDocumentSchema),
      }),
      { description: "the collections the account owns, shared ones included, with their documents' text" },
    ),
    audit: T.Array(AuditEventSchema, { description: "the audit trail's events about the account, newest first" }),
  },
  { description: "everything the service keeps of the account, as one JSON document (streamed)" },
);

/** This file's named schemas (components.schemas, in this order): a new one is added here only. */
export const LEAVING_SCHEMAS = {
  DeleteAccountBody: DeleteAccountBodySchema,
  AccountExport: AccountExportSchema,
} as const satisfies Record<string, TSchema>;
