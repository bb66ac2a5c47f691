import { describe, expect, test } from "bun:test";
import { clientIp, limitKey, setClientIp } from "../../src/http/client-ip.ts";

// The forms an address takes on the way in; how the running server counts clients is in test/auth/trust-proxy.test.ts.
describe("the client's address", () => {
  test("the address helpers: IPv4-mapped peers, ports and brackets in the header, the limit key", () => {
    const req = (xff: string, peer: string) => {
      const r = new Request("http://localhost/", { headers: { "x-forwarded-for": xff } });
      setClientIp(r, peer);
      return r;
    };
    const cfg = { TRUST_PROXY: "loopback" };
    expect(clientIp(req("203.0.113.1:5000", "::ffff:127.0.0.1"), cfg)).toBe("203.0.113.1");
    expect(clientIp(req("[2001:db8::7]:443", "::1"), cfg)).toBe("2001:db8::7");
    expect(clientIp(req("203.0.113.1", "192.0.2.50"), cfg)).toBe("192.0.2.50");
    expect(clientIp(req("127.0.0.2, 127.0.0.3", "127.0.0.1"), cfg)).toBe("127.0.0.2");
    expect(limitKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(limitKey("2001:0db8:0000:0001::5")).toBe("2001:db8:0:1::/64");
    expect(limitKey("::1")).toBe("0:0:0:0::/64");
  });
});
