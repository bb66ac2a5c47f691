/** What a rate-limit message says about its window (Groq and OpenAI word them alike). */
export interface LimitFacts {
  /** "minute" for TPM/RPM windows, "day" for TPD/RPD. */
  per?: "minute" | "day";
  limit?: number;
  requested?: number;
  /** "Please try again in 14.655s" / "in 2m59.5s", in ms. */
  tryAgainMs?: number;
}

const num = (s: string | undefined) => (s === undefined ? undefined : Number(s.replace(/[,_]/g, "")));

/** Reads "… on tokens per day (TPD): Limit 100000, Used 99876, Requested ~1234. Please try again in 15m2.4s." */
export function limitFacts(message: string): LimitFacts {
  const per = /per\s+day|\b[TR]PD\b/i.test(message)
    ? "day"
    : /per\s+min|\b[TR]PM\b/i.test(message)
      ? "minute"
      : undefined;
  const again = /try again in\s+([\dhms.]+)/i.exec(message)?.[1];
  return {
    per,
    limit: num(/\blimit\s+~?([\d,_]+)/i.exec(message)?.[1]),
    requested: num(/\brequested\s+~?([\d,_]+)/i.exec(message)?.[1]),
    tryAgainMs: again ? durationMs(again) : undefined,
  };
}

/** Go-style durations as Groq writes them ("7.66s", "2m59.56s", "1h2m", "450ms"), in ms. */
export function durationMs(text: string): number | undefined {
  const parts = [...text.trim().matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (!parts.length) return undefined;
  const unit = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
  return Math.round(parts.reduce((t, [, n, u]) => t + Number(n) * unit[u as keyof typeof unit], 0));
}
