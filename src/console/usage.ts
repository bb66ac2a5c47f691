import type { Account } from "../auth/accounts.ts";
import type { Config } from "../config/schema.ts";
import type { Usage, UsageDay } from "../contract/console.ts";
import { storageReport } from "../corpus/storage-allowance.ts";
import { allowanceFor } from "../runs/allowance.ts";
import type { Store } from "../store/types.ts";
import { monthBounds, periodOf } from "../util/time.ts";

/**
 * The Console's usage report (README "The API"). Totals and per_day cover the current UTC
 * month (the allowance's period); every day up to today is listed, zeros included.
 */
export async function usageReport(store: Store, cfg: Config, account: Account, now: Date = new Date()): Promise<Usage> {
  const { start, end } = monthBounds(now);
  const period = periodOf(now);
  const limit = allowanceFor(cfg, account.plan);
  const days = await store.runs.perDay(account.id, period);
  const byDate = new Map(days.map((d) => [d.date, d]));
  const per_day: UsageDay[] = [];
  for (let d = new Date(start); d <= now && d < end; d = new Date(d.getTime() + 86_400_000)) {
    const date = d.toISOString().slice(0, 10);
    const r = byDate.get(date);
    per_day.push({ date, calls: r?.calls ?? 0, ok: r?.ok ?? 0, error: r?.error ?? 0 });
  }
  const totals = days.reduce((a, d) => ({ calls: a.calls + d.calls, ok: a.ok + d.ok, error: a.error + d.error }), {
    calls: 0,
    ok: 0,
    error: 0,
  });
  const recent = await store.runs.recent(account.id, 50);
  // What the allowance check counts, not a recount of the month's rows.
  const used = await store.runCounters.used(account.id, period);
  return {
    plan: account.plan,
    period: { start: start.toISOString(), end: end.toISOString() },
    allowance: { limit, used, remaining: Math.max(0, limit - used) },
    storage: await storageReport(store, cfg, account),
    totals,
    per_day,
    recent,
  };
}
