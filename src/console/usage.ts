import type { Account } from "../auth/accounts.ts";
import type { Config } from "../config/schema.ts";
import type { Db } from "../db/open.ts";
import { allowanceFor, runsUsed } from "../quota/allowance.ts";
import { monthBounds, periodOf } from "../util/time.ts";

interface DayRow { date: string; calls: number; ok: number; error: number }

/**
 * The Console's usage report (CONTRACT §4). Totals and per_day cover the current UTC
 * month (the allowance's period); every day up to today is listed, zeros included.
 */
export function usageReport(db: Db, cfg: Config, account: Account, now: Date = new Date()) {
  const { start, end } = monthBounds(now);
  const period = periodOf(now);
  const limit = allowanceFor(cfg, account.plan);
  const days = db.$client.query<DayRow, [string, string]>(`
    SELECT substr(created_at, 1, 10) AS date, COUNT(*) AS calls,
      SUM(status = 'ok') AS ok, SUM(status = 'error') AS error
    FROM runs WHERE account_id = ? AND period = ? GROUP BY date ORDER BY date`).all(account.id, period);
  const byDate = new Map(days.map((d) => [d.date, d]));
  const per_day: DayRow[] = [];
  for (let d = new Date(start); d <= now && d < end; d = new Date(d.getTime() + 86_400_000)) {
    const date = d.toISOString().slice(0, 10);
    const r = byDate.get(date);
    per_day.push({ date, calls: r?.calls ?? 0, ok: r?.ok ?? 0, error: r?.error ?? 0 });
  }
  const totals = days.reduce((a, d) => ({ calls: a.calls + d.calls, ok: a.ok + d.ok, error: a.error + d.error }), { calls: 0, ok: 0, error: 0 });
  const recent = db.$client.query<Record<string, unknown>, [string]>(`
    SELECT id AS request_id, created_at, status, origin, endpoint, key_prefix, latency_ms, query
    FROM runs WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 50`).all(account.id);
  // What the allowance check counts, not a recount of the month's rows.
  const used = runsUsed(db, account.id, now);
  return {
    plan: account.plan,
    period: { start: start.toISOString(), end: end.toISOString() },
    allowance: { limit, used, remaining: Math.max(0, limit - used) },
    totals, per_day, recent,
  };
}
