import { findAccountByEmail } from "../auth/accounts.ts";
import { normalizeEmail } from "../auth/email.ts";
import { auditEvent } from "../console/audit-routes.ts";
import type { AuditEvent } from "../contract/audit.ts";
import { AppError } from "../contract/errors.ts";
import { type CommandInput, EXIT } from "./command.ts";
import { columns, shown } from "./terminal.ts";
import { withStore } from "./with-store.ts";

const PAGE = 1000;

/** `--since`: an ISO 8601 time (a date alone is its midnight UTC). */
function sinceOf(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const t = new Date(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(t.getTime()))
    throw new AppError("invalid_request", `--since ${shown(v)}: expected an ISO 8601 time, e.g. 2026-11-01T00:00:00Z`);
  return t.toISOString();
}

/**
 * `audit [--since ISO] [--account EMAIL] [--json]`: every event of the trail, newest first, read
 * a page at a time (README "The audit trail"); with --account, those where the account is
 * actor or target.
 */
export async function auditCommand({ cfg, options }: CommandInput): Promise<number> {
  const since = sinceOf(options.since as string | undefined);
  const email = options.account as string | undefined;
  return withStore(cfg, async (store) => {
    const account = email ? await findAccountByEmail(store, email) : null;
    if (email && !account) throw new AppError("not_found", `no account with email ${shown(normalizeEmail(email))}`);
    const line = (e: AuditEvent) => [
      `${e.at.slice(0, 19)}Z`,
      e.action,
      shown(e.actor ?? "-"),
      shown(e.target ?? "-"),
      e.ip ?? "-",
      shown(e.detail ?? ""),
    ];
    // A page at a time, written as it is read: a year's trail is never held whole.
    let before: number | null = null;
    let written = 0;
    if (options.json) process.stdout.write('{"events":[');
    for (;;) {
      const rows = await store.audit.list({ since, accountId: account?.id, before, limit: PAGE });
      const events = rows.map(auditEvent);
      if (options.json && events.length)
        process.stdout.write((written ? "," : "") + events.map((e) => JSON.stringify(e)).join(","));
      else if (events.length)
        process.stdout.write(
          `${columns([...(written ? [] : [["AT", "ACTION", "ACTOR", "TARGET", "IP", "DETAIL"]]), ...events.map(line)])}\n`,
        );
      written += events.length;
      if (rows.length < PAGE) break;
      before = rows[rows.length - 1]!.id;
    }
    if (options.json) process.stdout.write("]}\n");
    else if (!written) process.stderr.write("no events\n");
    return EXIT.ok;
  });
}
