/** An error answer of the service: {errors: [{code, message}]} or an envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter: number | null,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** JSON call to our own API with the session cookie (same origin). */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  const data = (await res.json().catch(() => null)) as { errors?: { code: string; message: string }[] } | null;
  if (!res.ok) {
    const e = data?.errors?.[0];
    throw new ApiError(
      res.status,
      e?.code ?? "error",
      e?.message ?? `HTTP ${res.status}`,
      Number(res.headers.get("retry-after")) || null,
      data,
    );
  }
  return data as T;
}

// The wire types come from the contract, as types only: no schema code enters the bundle.
export type { Me } from "../../contract/auth.ts";
