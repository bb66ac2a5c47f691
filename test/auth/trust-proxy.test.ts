import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { freshEmail, signupFrom } from "./auth-calls.ts";

useLongTimeout();

// One sign-up per client and hour: a second one from the same client is 429, so which
// client the server saw is observable from outside.
let trusting: TestServer, chain: TestServer, untrusting: TestServer;
beforeAll(() => {
  trusting = startTestServer({ engine: scriptedEngine(), env: { TRUST_PROXY: "127.0.0.1", SIGNUP_PER_HOUR: "1" } });
  chain = startTestServer({
    engine: scriptedEngine(),
    env: { TRUST_PROXY: "loopback, 10.0.0.0/8", SIGNUP_PER_HOUR: "1" },
  });
  untrusting = startTestServer({ engine: scriptedEngine(), env: { SIGNUP_PER_HOUR: "1" } });
});
afterAll(() => Promise.all([trusting.stop(100), chain.stop(100), untrusting.stop(100)]));

const statuses = async (base: string, froms: string[]) => {
  const out: number[] = [];
  for (const from of froms) out.push((await signupFrom(base, freshEmail(), from)).status);
  return out;
};

describe("the client's address behind a proxy (TRUST_PROXY)", () => {
  test("from a trusted proxy, X-Forwarded-For names the client: each forwarded client has its own limit", async () => {
    expect(await statuses(trusting.url, ["203.0.113.1", "203.0.113.2", "203.0.113.1"])).toEqual([201, 201, 429]);
  });

  test("the right-most untrusted entry counts: a client writing its own X-Forwarded-For changes nothing", async () => {
    // The proxy appends the address it saw (203.0.113.5) to whatever the client sent.
    expect(await statuses(trusting.url, ["203.0.113.5", "198.51.100.77, 203.0.113.5", "unknown, 203.0.113.5"])).toEqual(
      [201, 429, 429],
    );
  });

  test("a chain of trusted proxies (CIDR) is walked from the right to the first untrusted address", async () => {
    expect(await statuses(chain.url, ["203.0.113.9, 10.1.2.3", "203.0.113.9, 10.9.9.9, 10.1.2.3"])).toEqual([201, 429]);
    expect(await statuses(chain.url, ["203.0.113.10, 10.1.2.3"])).toEqual([201]);
  });

  test("without TRUST_PROXY the header is ignored: every request is the socket peer's", async () => {
    expect(await statuses(untrusting.url, ["203.0.113.1", "203.0.113.2"])).toEqual([201, 429]);
    expect(untrusting.logs.some((l) => l.includes("trust_proxy_unset"))).toBe(true);
  });

  test("an IPv6 client is counted by its /64 (one subscriber holds a whole /64)", async () => {
    expect(await statuses(trusting.url, ["2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:db8:1:3::1"])).toEqual([
      201, 429, 201,
    ]);
  });
});
