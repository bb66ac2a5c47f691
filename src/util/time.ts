/** The allowance month ("YYYY-MM", UTC) a moment falls in. */
export const periodOf = (d: Date = new Date()): string => d.toISOString().slice(0, 7);

/** First instant of the UTC month of `d`, and of the month after. */
export function monthBounds(d: Date = new Date()): { start: Date; end: Date } {
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const end = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  return { start, end };
}

/** Rounded milliseconds since `t0` (performance.now()). */
export const since = (t0: number): number => Math.round(performance.now() - t0);
