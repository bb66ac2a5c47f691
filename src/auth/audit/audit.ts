import type { Config } from "../../config/schema.ts";
import { clientIp, limitKey } from "../../http/client-ip.ts";
import type { AuditNote, Store } from "../../store/types.ts";
import { collapse } from "../../util/collapse.ts";
import type { Logger } from "../../util/logger.ts";

/** Every action the trail records (README "The audit trail"); operator commands add `operator_<command>`. */
export const AUDIT_ACTIONS = [
  "signup",
  "signin",
  "signin_failed",
  "signout",
  "key_created",
  "key_revoked",
  "email_confirmed",
  "account_taken_over",
  "account_exported",
  "account_deleted",
  "collection_created",
  "collection_renamed",
  "collection_shared",
  "collection_unshared",
  "collection_deleted",
  "documents_uploaded",
  "document_deleted",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number] | `operator_${string}`;

/** Who acted: an account (its id and address), or nobody known (a failed sign-in, the operator). */
export type Actor = { id: string; email: string } | null;

export interface NoteParts {
  targetId?: string | null;
  target?: string | null;
  detail?: string | null;
}

/** One caller's entries: what a service function that changes several things is handed. */
export interface AuditScope {
  note(action: AuditAction, parts?: NoteParts): AuditNote;
  logged(note: AuditNote | undefined, happened?: boolean): void;
}

/**
 * Failed sign-ins written one by one: at most this many per client address and per address
 * typed in an hour; the rest are counted on the last row (docs/decisions/0190-an-audit-trail-in-the-change-s-transaction.md).
 */
export const FAILED_SIGNIN_BOUND = { max: 20, windowMs: 3_600_000 } as const;

/** A detail stays one short line: the trail is not a place for text of the caller's. */
const short = (s: string | null | undefined): string | null => (s == null ? null : collapse(s, 200));

/**
 * Builds the entries the store writes inside each change's transaction, and the JSON log line
 * each entry also gets once its change committed. The client's address is the one `TRUST_PROXY`
 * resolves (src/http/client-ip.ts); `request` null: no client (the CLI).
 */
export class Audit {
  constructor(
    private readonly config: Pick<Config, "TRUST_PROXY">,
    private readonly logger: Logger,
  ) {}

  note(action: AuditAction, request: Request | null, actor: Actor, parts: NoteParts = {}): AuditNote {
    return {
      action,
      actorId: actor?.id ?? null,
      actor: actor?.email ?? (action.startsWith("operator_") ? "operator" : null),
      targetId: parts.targetId ?? null,
      target: short(parts.target),
      ip: request ? clientIp(request, this.config) : null,
      detail: short(parts.detail),
    };
  }

  /** The client's limit key (src/http/client-ip.ts), for the sign-in throttle. */
  client(request: Request): string {
    return limitKey(clientIp(request, this.config));
  }

  scope(request: Request | null, actor: Actor): AuditScope {
    return { note: (action, parts) => this.note(action, request, actor, parts), logged: (n, h) => this.logged(n, h) };
  }

  /** The log line of an entry whose change happened (never a secret: entries hold none). */
  logged(note: AuditNote | undefined, happened = true): void {
    if (!note || !happened) return;
    this.logger.info("audit", {
      action: note.action,
      actor_id: note.actorId,
      target: note.target ?? null,
      ip: note.ip,
      detail: note.detail ?? null,
    });
  }

  /** A change of nothing else (an export, an operator's command): written, then logged. */
  async append(store: Store, note: AuditNote): Promise<void> {
    await store.audit.append(note);
    this.logged(note);
  }

  /** A failed sign-in on `email` (the account's id when there is one), bounded. */
  async failedSignin(store: Store, request: Request, email: string, accountId: string | null): Promise<void> {
    const note = this.note("signin_failed", request, null, { targetId: accountId, target: email });
    const outcome = await store.audit.failedSignin(note, FAILED_SIGNIN_BOUND);
    if (outcome === "written") this.logged(note);
    else this.logger.debug("audit_cut", { action: "signin_failed", ip: note.ip });
  }
}
