import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isNonPublicAddress } from "./address-policy.ts";
import { FetchError } from "./fetch-error.ts";

/** Resolves a host name to all its addresses (injectable so tests can model DNS offline). */
export type Lookup = (host: string) => Promise<string[]>;

export const systemLookup: Lookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** A URL cleared for fetching, with the address to connect to. */
export interface ClearedUrl {
  url: URL;
  address: string | null;
}

/**
 * Checks one hop before any connection. Threat: SSRF through odd address spellings
 * (decimal, octal, hex IPv4 — WHATWG URL parsing normalises those to dotted quads),
 * IPv6 forms, names that resolve to private addresses, and userinfo tricks.
 * Every resolved address must be public, or a later re-resolution could pick the bad one.
 */
export async function clearUrl(
  raw: string | URL,
  o: { allowPrivate: boolean; lookup: Lookup; isPublic?: (ip: string) => boolean; signal?: AbortSignal },
): Promise<ClearedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError("bad_scheme", String(raw), "not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new FetchError("bad_scheme", url.href, `scheme ${url.protocol} is not allowed`);
  if (url.username || url.password)
    throw new FetchError("blocked_address", url.href, "credentials in URLs are not allowed");
  if (o.allowPrivate) return { url, address: null };
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (
    !host ||
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host.endsWith(".local") ||
    host.endsWith(".internal")
  ) {
    throw new FetchError("blocked_address", url.href, `host ${host || "(empty)"} is not public`);
  }
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await abortable(o.lookup(host), o.signal);
    } catch (e) {
      if (o.signal?.aborted) throw e;
      throw new FetchError("network", url.href, `cannot resolve ${host}`);
    }
  }
  const isPublic = o.isPublic ?? ((ip: string) => !isNonPublicAddress(ip));
  if (!addresses.length || !addresses.every(isPublic)) {
    throw new FetchError("blocked_address", url.href, `${host} resolves to a non-public address`);
  }
  return { url, address: addresses[0]! };
}

/**
 * The system resolver can't be cancelled, and a stalled DNS server would otherwise hold a
 * page past its timeout: give up waiting (the lookup finishes in the background).
 */
function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
