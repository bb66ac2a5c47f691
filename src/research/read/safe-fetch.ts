import { FetchError } from "./fetch-error.ts";
import { clearUrl, systemLookup, type Lookup } from "./url-guard.ts";

export interface SafeFetchOptions {
  signal: AbortSignal;
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  accept?: string;
  lookup?: Lookup;
  /** Address policy override, for tests that must treat one loopback address as public. */
  isPublic?: (ip: string) => boolean;
}

export interface Fetched { url: string; status: number; contentType: string; headers: Headers; body: Uint8Array }

const UA = "Mozilla/5.0 (compatible; research-query/0.1; +https://github.com/research-query)";

/**
 * GET a page through the SSRF guard: each hop is cleared before connecting, redirects are
 * followed by hand (each Location re-cleared), and bytes and time are capped. Plain-http
 * hops connect to the vetted IP with a Host header, so DNS can't change its answer
 * between check and connect; https needs the name for SNI and certificate checks, which
 * leaves a narrow rebinding window that a certificate for the name makes unexploitable
 * for reading responses from internal services.
 */
export async function safeFetch(raw: string, o: SafeFetchOptions): Promise<Fetched> {
  const maxBytes = o.maxBytes ?? 5 * 1024 * 1024;
  const timeout = AbortSignal.timeout(o.timeoutMs ?? 10_000);
  const signal = AbortSignal.any([o.signal, timeout]);
  const fail = (url: string, e: unknown): never => {
    if (e instanceof FetchError) throw e;
    if (o.signal.aborted) throw new FetchError("aborted", url, "aborted");
    if (timeout.aborted) throw new FetchError("timeout", url, `no complete answer within ${o.timeoutMs ?? 10_000} ms`);
    throw new FetchError("network", url, (e as Error)?.message ?? String(e));
  };
  let current = raw;
  for (let hop = 0; ; hop++) {
    const { url, address } = await clearUrl(current, { allowPrivate: o.allowPrivate, lookup: o.lookup ?? systemLookup, isPublic: o.isPublic });
    let target = url.href;
    const headers: Record<string, string> = { "user-agent": UA, accept: o.accept ?? "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5", "accept-language": "en;q=0.9,*;q=0.5" };
    if (address && url.protocol === "http:") {
      const pinned = new URL(url.href);
      pinned.hostname = address.includes(":") ? `[${address}]` : address;
      target = pinned.href;
      headers.host = url.host;
    }
    let res: Response;
    try { res = await fetch(target, { redirect: "manual", signal, headers }); } catch (e) { return fail(url.href, e); }
    if (res.status >= 300 && res.status < 400 && res.headers.get("location")) {
      await res.body?.cancel().catch(() => {});
      if (hop >= (o.maxRedirects ?? 5)) throw new FetchError("too_many_redirects", url.href, "too many redirects");
      current = new URL(res.headers.get("location")!, url).href;
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new FetchError("http_status", url.href, `HTTP ${res.status}`, res.status);
    }
    const declared = Number(res.headers.get("content-length") ?? "0");
    if (declared > maxBytes) {
      await res.body?.cancel().catch(() => {});
      throw new FetchError("too_large", url.href, `the page is larger than ${maxBytes} bytes`);
    }
    const body = await readCapped(res, maxBytes, url.href).catch((e) => fail(url.href, e));
    return { url: url.href, status: res.status, contentType: res.headers.get("content-type") ?? "", headers: res.headers, body };
  }
}

async function readCapped(res: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new FetchError("too_large", url, `the page is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) { out.set(c, off); off += c.byteLength; }
  return out;
}
