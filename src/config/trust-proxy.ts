import { BlockList, isIP } from "node:net";

// TRUST_PROXY: which peers may speak for a client through X-Forwarded-For (read by http/client-ip.ts).
const SHORTHANDS: Record<string, [string, number][]> = {
  loopback: [
    ["127.0.0.0", 8],
    ["::1", 128],
  ],
  private: [
    ["10.0.0.0", 8],
    ["172.16.0.0", 12],
    ["192.168.0.0", 16],
    ["fc00::", 7],
  ],
};

/** TRUST_PROXY ("loopback, 10.0.0.0/8, 192.0.2.7") as a set, or null when an entry is not an address or CIDR. */
export function parseTrustProxy(raw: string): BlockList | null {
  const set = new BlockList();
  const entries = raw.split(",").map((e) => e.trim().toLowerCase());
  if (!entries.length || entries.some((e) => !e)) return null;
  for (const entry of entries) {
    const ranges = SHORTHANDS[entry] ?? [cidr(entry)];
    for (const range of ranges) {
      if (!range) return null;
      const [addr, bits] = range;
      set.addSubnet(addr, bits, isIP(addr) === 4 ? "ipv4" : "ipv6");
    }
  }
  return set;
}

function cidr(entry: string): [string, number] | null {
  const [addr = "", bits, extra] = entry.split("/");
  const family = isIP(addr);
  if (!family || extra !== undefined) return null;
  const max = family === 4 ? 32 : 128;
  if (bits === undefined) return [addr, max];
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return null;
  return [addr, Number(bits)];
}

const parsed = new Map<string, BlockList | null>();
/** TRUST_PROXY parsed once per value; null when unset (no proxy is believed). */
export function trustedProxies(raw: string | undefined): BlockList | null {
  if (!raw) return null;
  if (!parsed.has(raw)) parsed.set(raw, parseTrustProxy(raw));
  return parsed.get(raw) ?? null;
}
