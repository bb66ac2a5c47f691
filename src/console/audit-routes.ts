import type { Account } from "../auth/accounts.ts";
import { AUDIT_PAGE, type AuditEvent, type AuditPage } from "../contract/audit.ts";
import { AppError } from "../contract/errors.ts";
import { err, json as jsonAnswer, sessionOp } from "../contract/openapi-operations.ts";
import { queryValue } from "../http/query-value.ts";
import { json, NO_STORE } from "../http/responses.ts";
import { routes } from "../http/route.ts";
import type { AuditRow, Store } from "../store/types.ts";

/** An event as people read it: failed sign-ins past their bound said in its detail. */
export function auditEvent(r: AuditRow): AuditEvent {
  const cut = r.cut > 0 ? `${r.cut} more not recorded one by one` : null;
  return {
    at: r.at,
    action: r.action,
    actor: r.actor,
    target: r.target,
    ip: r.ip,
    detail: r.detail && cut ? `${r.detail}; ${cut}` : (r.detail ?? cut),
  };
}

/** The ?before= cursor: an event's id as the previous page gave it. */
function beforeParam(v: string | undefined): number | null {
  if (v === undefined) return null;
  if (!/^[1-9]\d{0,15}$/.test(v)) throw new AppError("invalid_request", "before is the next of a previous page");
  return Number(v);
}

/** One page of the events where the account is actor or target, newest first. */
export async function auditPage(store: Store, accountId: string, before: number | null): Promise<AuditPage> {
  const rows = await store.audit.forAccount(accountId, before, AUDIT_PAGE + 1);
  const page = rows.slice(0, AUDIT_PAGE);
  return {
    events: page.map(auditEvent),
    next: rows.length > AUDIT_PAGE ? String(page[page.length - 1]!.id) : null,
  };
}

const GET_AUDIT = sessionOp(
  "getAudit",
  "Console",
  "The account's audit trail: events where it is the actor or the target, newest first",
  {
    200: jsonAnswer("AuditPage", "a page of events from ?before="),
    400: err(["invalid_request"], " (before not a previous page's next, or given twice)"),
  },
  {
    parameters: [
      {
        name: "before",
        in: "query",
        required: false,
        description: "the previous answer's next: the page of older events (the newest when absent)",
        schema: { type: "string" },
      },
    ],
  },
);

/** The Console's audit trail (README "The audit trail"): session cookie only. */
export const AUDIT_ROUTES = routes<Account>()(
  { getAudit: { method: "GET", path: "/api/console/audit", auth: "session", body: "none", operation: GET_AUDIT } },
  (deps: { store: Store }) => ({
    getAudit: async ({ account, request }) =>
      json(await auditPage(deps.store, account.id, beforeParam(queryValue(request, "before"))), 200, NO_STORE),
  }),
);
