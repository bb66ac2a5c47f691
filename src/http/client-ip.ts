import { type BlockList, isIP } from "node:net";
import type { Config } from "../config/schema.ts";
import { trustedProxies } from "../config/trust-proxy.ts";

/**
 * The client's address, for the sign-in and sign-up limits. Threat: a client writing its own
 * X-Forwarded-For to pose as someone else (evading its limits, or spending another's). The
 * header is believed only from the proxies TRUST_PROXY names, and only as far as they reach.
 */

// Elysia's context has no server when it is driven through .handle(), so the outer
// fetch records each request's peer address here.
const peers = new WeakMap<Request, string>();

export function setClientIp(request: Request, ip: string | undefined): void {
  if (ip) peers.set(request, ip);
}

const isTrusted = (set: BlockList, ip: string): boolean => {
  const family = isIP(ip);
  return family !== 0 && set.check(ip, family === 4 ? "ipv4" : "ipv6");
};

/** One X-Forwarded-For entry as a bare address ("[::1]:80", "192.0.2.1:5000" → the address), or null. */
function bareAddress(entry: string): string | null {
  let a = entry.trim();
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracket) a = bracket[1]!;
  else if (/^[\d.]+:\d+$/.test(a)) a = a.slice(0, a.indexOf(":"));
  return isIP(a) ? a : null;
}

/**
 * The client's address: the socket peer, or — when the peer is a trusted proxy — the
 * right-most X-Forwarded-For address that is not itself a trusted proxy (walking from the
 * right: everything left of it was written by parties we don't trust). All code that needs
 * the client's address asks here.
 */
export function clientIp(request: Request, config: Pick<Config, "TRUST_PROXY">): string {
  const peer = peers.get(request);
  if (!peer) return "unknown";
  const set = trustedProxies(config.TRUST_PROXY);
  if (!set || !isTrusted(set, peer)) return peer;
  const hops = (request.headers.get("x-forwarded-for") ?? "").split(",");
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = bareAddress(hops[i]!);
    // A malformed entry from a trusted hop: keep the last address we could believe.
    if (!hop) break;
    client = hop;
    if (!isTrusted(set, hop)) break;
  }
  return client;
}

/** True when a request came through a proxy whose X-Forwarded-For is ignored (TRUST_PROXY unset). */
export function forwardedButUntrusted(request: Request, config: Pick<Config, "TRUST_PROXY">): boolean {
  return !config.TRUST_PROXY && request.headers.has("x-forwarded-for");
}

/**
 * The key one client's limits are counted under: its address, and for IPv6 its /64 — one
 * subscriber usually holds a whole /64 and could otherwise take a fresh address per guess.
 * IPv4-mapped IPv6 addresses count as the IPv4 address.
 */
export function limitKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIP(ip) !== 6) return ip;
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
