import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/load.ts";

// The forms TRUST_PROXY takes; how the running server counts clients is in test/auth/trust-proxy.test.ts.
describe("TRUST_PROXY values", () => {
  test("addresses, CIDRs, loopback and private are accepted; anything else stops the start naming the variable", () => {
    const env = (v: string) => ({ PORT: "0", DATABASE_PATH: ":memory:", TRUST_PROXY: v });
    for (const ok of ["127.0.0.1", "loopback", "private, 192.0.2.7", "10.0.0.0/8,::1", "2001:db8::/32"])
      expect(loadConfig(env(ok), "/nonexistent").TRUST_PROXY).toBe(ok);
    for (const bad of ["10.0.0.0/33", "nginx", "10.0.0.0/8,", "::1/129", "1.2.3.4/8/1", "*"])
      expect(() => loadConfig(env(bad), "/nonexistent")).toThrow(/TRUST_PROXY/);
  });
});
