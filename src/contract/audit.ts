import { type Static, Type as T, type TSchema } from "@sinclair/typebox";
import { Timestamp } from "./formats.ts";

/**
 * The audit trail as the Console shows it (README "The audit trail", GET /api/console/audit):
 * security-relevant events where the caller is the actor or the target, newest first.
 */

/** The most events one answer carries; `next` pages on. */
export const AUDIT_PAGE = 100;

const Label = (description: string) => T.Union([T.String(), T.Null()], { description });

export const AuditEventSchema = T.Object(
  {
    at: Timestamp("when the change was made"),
    action: T.String({
      description:
        "signup, signin, signin_failed, signout, key_created, key_revoked, email_confirmed, account_taken_over, account_exported, account_deleted, collection_created, collection_renamed, collection_shared, collection_unshared, collection_deleted, documents_uploaded, document_deleted, or operator_<command>",
    }),
    actor: Label("who acted: an account's email, `operator`, or null (a failed sign-in)"),
    target: Label("what it acted on: an email, a key's prefix, a collection's name, or null"),
    ip: Label("the client's address (as TRUST_PROXY resolves it); null for the operator's commands"),
    detail: Label("a short note; never a password, key, token or document text"),
  },
  { description: "one event of the audit trail" },
);

export const AuditPageSchema = T.Object(
  {
    events: T.Array(AuditEventSchema, { maxItems: AUDIT_PAGE, description: `newest first, at most ${AUDIT_PAGE}` }),
    next: T.Union([T.String(), T.Null()], {
      description: "the ?before= of the following (older) events; null after the last",
    }),
  },
  { description: "the caller's audit events, a page at a time" },
);

export type AuditEvent = Static<typeof AuditEventSchema>;
export type AuditPage = Static<typeof AuditPageSchema>;

/** This file's named schemas (components.schemas, in this order): a new one is added here only. */
export const AUDIT_SCHEMAS = {
  AuditEvent: AuditEventSchema,
  AuditPage: AuditPageSchema,
} as const satisfies Record<string, TSchema>;
