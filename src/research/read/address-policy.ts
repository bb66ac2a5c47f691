import { isIP } from "node:net";

// Threat: a search result or redirect aiming our server at loopback, the intranet or a
// cloud metadata service (SSRF). Every address a page fetch would connect to is checked here.

const V4_BLOCKS: [number, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
].map(([a, bits]) => [v4ToInt(a as string)!, bits as number]);

function v4ToInt(a: string): number | null {
  const p = a.split(".");
  if (p.length !== 4) return null;
  let n = 0;
  for (const x of p) {
    if (!/^\d{1,3}$/.test(x) || Number(x) > 255) return null;
    n = n * 256 + Number(x);
  }
  return n >>> 0;
}

function v4Blocked(a: string): boolean {
  const n = v4ToInt(a);
  if (n === null) return true;
  return V4_BLOCKS.some(([base, bits]) => (bits === 0 ? true : n >>> (32 - bits) === base >>> (32 - bits)));
}

/** Expands an IPv6 literal to 8 hextets (handles ::, embedded IPv4, zone ids). */
function v6Hextets(a: string): number[] | null {
  let s = a.replace(/%.*$/, "").toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const n = v4ToInt(v4[1]!);
    if (n === null) return null;
    s = s.slice(0, -v4[1]!.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const parse = (x: string) => (x ? x.split(":").map((h) => parseInt(h, 16)) : []);
  const head = parse(halves[0]!),
    tail = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const out = [...head, ...Array(fill).fill(0), ...tail];
  return out.every((h) => Number.isInteger(h) && h >= 0 && h <= 0xffff) ? out : null;
}

function v6Blocked(a: string): boolean {
  const h = v6Hextets(a);
  if (!h) return true;
  const embedded = () => `${h[6]! >> 8}.${h[6]! & 255}.${h[7]! >> 8}.${h[7]! & 255}`;
  if (h.slice(0, 7).every((x) => x === 0)) return true; // :: and ::1
  if (h.slice(0, 5).every((x) => x === 0) && h[5] === 0xffff) return v4Blocked(embedded()); // IPv4-mapped
  if (h.slice(0, 6).every((x) => x === 0)) return true; // IPv4-compatible (deprecated): never public
  if (h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0)) return v4Blocked(embedded()); // NAT64
  if (h[0] === 0x2002) return v4Blocked(`${h[1]! >> 8}.${h[1]! & 255}.${h[2]! >> 8}.${h[2]! & 255}`); // 6to4
  if ((h[0]! & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((h[0]! & 0xffc0) === 0xfe80) return true; // link-local
  if ((h[0]! & 0xffc0) === 0xfec0) return true; // site-local (deprecated)
  if ((h[0]! & 0xff00) === 0xff00) return true; // multicast
  if (h[0] === 0x2001 && h[1] === 0x0db8) return true; // documentation
  if (h[0] === 0x2001 && h[1]! < 0x200) return true; // Teredo, benchmarking, ORCHID
  if (h[0] === 0x0100 && h.slice(1, 4).every((x) => x === 0)) return true; // discard-only
  return false;
}

/** True when `ip` (a literal) is not a public unicast address. */
export function isNonPublicAddress(ip: string): boolean {
  const kind = isIP(ip.replace(/^\[|\]$/g, ""));
  if (kind === 4) return v4Blocked(ip);
  if (kind === 6) return v6Blocked(ip.replace(/^\[|\]$/g, ""));
  return true;
}
