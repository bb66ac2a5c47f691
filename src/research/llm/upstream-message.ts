/** Longest upstream reason kept in an error message or a log line. */
export const UPSTREAM_MESSAGE_MAX = 300;

// Threat: an upstream echoing credentials (ours or another tenant's) into our errors and logs.
const SECRETS = [
  /\b(gsk|sk|pk|rk|xai|tvly|key)[-_][A-Za-z0-9_-]{8,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(org|user|proj)_[A-Za-z0-9]{6,}/g,
];

/** An upstream's reason made safe to show: secrets masked, white space collapsed, length capped. */
export function cleanReason(text: string, max = UPSTREAM_MESSAGE_MAX): string {
  let t = text.replace(/\s+/g, " ").trim();
  for (const re of SECRETS) t = t.replace(re, (m) => `${m.split(/[-_\s]/)[0]}…`);
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v : null);

/**
 * The human reason inside an error body, as OpenAI, Groq, vLLM, llama.cpp and FastAPI
 * servers write it: {"error": {"message"}}, {"error": "…"}, {"detail": "…" | [{msg}]},
 * {"message": "…"}; a plain-text body as it is. Null for HTML pages and empty bodies.
 */
export function upstreamReason(body: unknown): string | null {
  if (typeof body === "string") {
    const t = body.trim();
    if (!t || /^<(!doctype|html|\?xml)/i.test(t)) return null;
    try {
      return upstreamReason(JSON.parse(t));
    } catch {
      return cleanReason(t);
    }
  }
  if (!body || typeof body !== "object") return null;
  const b = body as Record<string, unknown>;
  const e = b.error;
  const detail = Array.isArray(b.detail)
    ? b.detail.map((d) => str((d as { msg?: unknown })?.msg)).find(Boolean)
    : str(b.detail);
  const found =
    str((e as { message?: unknown } | null)?.message) ??
    str(e) ??
    detail ??
    str(b.message) ??
    (e && typeof e === "object" ? upstreamReason(e) : null);
  return found ? cleanReason(found) : null;
}

/** The HTTP status an in-stream error event carries (Groq: status_code beside or inside error). */
export function statusInside(body: unknown): number | undefined {
  const b = body as { status_code?: unknown; status?: unknown; error?: { status_code?: unknown; code?: unknown } };
  const v = b?.status_code ?? b?.error?.status_code ?? b?.status ?? b?.error?.code;
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) && n >= 400 && n < 600 ? n : undefined;
}

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
