import { readBodyCapped } from "../../util/read-capped.ts";
import { FetchError } from "./fetch-error.ts";
import { clearUrl, type Lookup, systemLookup } from "./url-guard.ts";

export interface SafeFetchOptions {
  /** The caller's signal (run or stage); its abort ends the fetch at once. */
  signal: AbortSignal;
  /** FETCH_ALLOW_PRIVATE: skip the address check (tests, closed intranets); schemes stay checked. */
  allowPrivate: boolean;
  /** Whole fetch, redirects and body included; default 10 s. */
  timeoutMs?: number;
  /** Decompressed body cap; default 5 MB. */
  maxBytes?: number;
  /** Redirects followed before "too_many_redirects"; default 5. */
  maxRedirects?: number;
  accept?: string;
  /** Resolver, injectable so tests can model DNS offline; defaults to dns.lookup. */
  lookup?: Lookup;
  /** Address policy override, for tests that must treat one loopback address as public. */
  isPublic?: (ip: string) => boolean;
  /** Extra trusted CA certificates (PEM): intranets with a private CA, and TLS tests. */
  ca?: string | string[];
}

/** A fetched resource: final URL after redirects, and the capped, decompressed body. */
export interface Fetched {
  url: string;
  status: number;
  contentType: string;
  headers: Headers;
  body: Uint8Array;
}

const UA = "Mozilla/5.0 (compatible; research-query/0.1; +https://github.com/research-query)";
const DEFAULT_ACCEPT = "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5";

/**
 * GET a page through the SSRF guard: each hop is cleared before connecting, redirects are
 * followed by hand (each Location re-cleared), and bytes and time are capped.
 *
 * Threat: DNS rebinding (a name answering public for the check, private for the connect).
 * Every hop therefore connects to the vetted IP literal itself: plain http sends the
 * name as Host; https also sets Bun's `tls.serverName`, which drives both SNI and the
 * certificate check, so the certificate is still verified against the name.
 */
export async function safeFetch(raw: string, o: SafeFetchOptions): Promise<Fetched> {
  const maxBytes = o.maxBytes ?? 5 * 1024 * 1024;
  const timeoutMs = o.timeoutMs ?? 10_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([o.signal, timeout]);
  const fail = (url: string, e: unknown): never => {
    if (e instanceof FetchError) throw e;
    if (o.signal.aborted) throw new FetchError("aborted", url, "aborted");
    if (timeout.aborted) throw new FetchError("timeout", url, `no complete answer within ${timeoutMs} ms`);
    throw new FetchError("network", url, (e as Error)?.message ?? String(e));
  };
  let current = raw;
  for (let hop = 0; ; hop++) {
    if (signal.aborted) fail(current, signal.reason);
    const { url, address } = await clearUrl(current, {
      allowPrivate: o.allowPrivate,
      lookup: o.lookup ?? systemLookup,
      isPublic: o.isPublic,
      signal,
    }).catch((e) => fail(current, e));
    const headers: Record<string, string> = {
      "user-agent": UA,
      accept: o.accept ?? DEFAULT_ACCEPT,
      "accept-language": "en;q=0.9,*;q=0.5",
    };
    const init: BunFetchRequestInit = { redirect: "manual", signal, headers };
    let target = url.href;
    const name = url.hostname.replace(/^\[|\]$/g, "");
    if (address && address !== name) {
      const pinned = new URL(url.href);
      pinned.hostname = address.includes(":") ? `[${address}]` : address;
      target = pinned.href;
      headers.host = url.host;
      if (url.protocol === "https:") init.tls = { serverName: name, ...(o.ca ? { ca: o.ca } : {}) };
    } else if (o.ca && url.protocol === "https:") init.tls = { ca: o.ca };
    let res: Response;
    try {
      res = await fetch(target, init);
    } catch (e) {
      return fail(url.href, e);
    }
    const location = res.status >= 300 && res.status < 400 ? res.headers.get("location") : null;
    if (location) {
      await res.body?.cancel().catch(() => {});
      if (hop >= (o.maxRedirects ?? 5))
        throw new FetchError("too_many_redirects", url.href, `more than ${o.maxRedirects ?? 5} redirects`);
      try {
        current = new URL(location, url).href;
      } catch {
        throw new FetchError("bad_scheme", url.href, "the redirect target is not a valid URL");
      }
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
    const tooLarge = () => new FetchError("too_large", url.href, `the page is larger than ${maxBytes} bytes`);
    const body = await readBodyCapped(res, maxBytes, tooLarge).catch((e) => fail(url.href, e));
    return {
      url: url.href,
      status: res.status,
      contentType: res.headers.get("content-type") ?? "",
      headers: res.headers,
      body,
    };
  }
}
