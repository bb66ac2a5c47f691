/** An error answer of the service: {errors: [{code, message}]} or an envelope. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly retryAfter: number | null, readonly body: unknown) {
    super(message);
  }
}

/** JSON call to our own API with the session cookie (same origin). */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method, credentials: "same-origin",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  const data = await res.json().catch(() => null) as { errors?: { code: string; message: string }[] } | null;
  if (!res.ok) {
    const e = data?.errors?.[0];
    throw new ApiError(res.status, e?.code ?? "error", e?.message ?? `HTTP ${res.status}`, Number(res.headers.get("retry-after")) || null, data);
  }
  return data as T;
}

export interface Me { id: string; email: string; plan: string; created_at: string }
export interface Source { id: string; title: string; url: string; type: string; provider: string; snippet: string; published_at?: string; venue?: string; authors?: string[] }
export interface Envelope { request_id: string; status: "ok" | "error"; answer: string | null; sources: Source[]; usage: { latency_ms: number; tokens_in: number; tokens_out: number }; errors: { code: string; message: string }[] }
