import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { isNonPublicAddress } from "../../../src/research/read/address-policy.ts";
import { FetchError } from "../../../src/research/read/fetch-error.ts";
import { safeFetch } from "../../../src/research/read/safe-fetch.ts";
import type { Lookup } from "../../../src/research/read/url-guard.ts";
import { type PageServer, startPageServer } from "../../fixtures/page-server.ts";
import { CERT_NAME, startTlsServer, TEST_CERT } from "./tls-fixture.ts";

let pages: PageServer;
let P: number;
beforeAll(() => {
  pages = startPageServer();
  P = Number(new URL(pages.base).port);
});
afterAll(() => pages.stop());

// Offline there is no public address to reach, so names are resolved by a table: a
// public-looking name maps to a documentation-range address that is never connected to
// because every case below must be refused first.
const dns: Record<string, string[]> = {
  "intranet.example.com": ["10.1.2.3"],
  "metadata.example.com": ["169.254.169.254"],
  "rebind.example.com": ["93.184.216.34", "127.0.0.1"],
  "v6loop.example.com": ["::1"],
  "mapped.example.com": ["::ffff:192.168.0.1"],
  "localtest.me": ["127.0.0.1"],
};
const lookup: Lookup = async (h) => {
  const a = dns[h];
  if (!a) throw new Error("ENOTFOUND");
  return a;
};

describe("SSRF guard", () => {
  const cases = (): [string, string][] => [
    ["loopback", `http://127.0.0.1:${P}/article/base-editing`],
    ["localhost", `http://localhost:${P}/article/base-editing`],
    ["localhost with trailing dot", `http://localhost.:${P}/`],
    ["sub.localhost", `http://api.localhost:${P}/`],
    ["decimal IPv4", `http://2130706433:${P}/`],
    ["hex IPv4", `http://0x7f000001:${P}/`],
    ["dotted hex IPv4", `http://0x7f.0x0.0x0.0x1:${P}/`],
    ["octal IPv4", `http://0177.0.0.1:${P}/`],
    ["short IPv4", `http://127.1:${P}/`],
    ["other loopback", `http://127.255.255.254:${P}/`],
    ["IPv6 loopback", `http://[::1]:${P}/`],
    ["IPv4-mapped IPv6", `http://[::ffff:127.0.0.1]:${P}/`],
    ["IPv4-mapped IPv6 hex", `http://[::ffff:7f00:1]:${P}/`],
    ["NAT64 of loopback", `http://[64:ff9b::7f00:1]:${P}/`],
    ["unspecified", `http://0.0.0.0:${P}/`],
    ["zero", `http://0:${P}/`],
    ["cloud metadata", "http://169.254.169.254/latest/meta-data/"],
    ["10/8", "http://10.0.0.1/"],
    ["172.16/12", "http://172.16.5.4/"],
    ["192.168/16", "http://192.168.1.1/"],
    ["CGNAT", "http://100.64.0.1/"],
    ["link-local v6", "http://[fe80::1]/"],
    ["unique-local v6", "http://[fc00::1]/"],
    ["multicast", "http://224.0.0.1/"],
    ["broadcast", "http://255.255.255.255/"],
    ["file scheme", "file:///etc/passwd"],
    ["ftp scheme", "ftp://127.0.0.1/"],
    ["gopher scheme", `gopher://127.0.0.1:${P}/_x`],
    ["data scheme", "data:text/html,<p>x</p>"],
    ["userinfo trick", `http://example.com@127.0.0.1:${P}/`],
    ["credentials", `http://user:pw@intranet.example.com/`],
    ["name → private", "http://intranet.example.com/"],
    ["name → metadata", "http://metadata.example.com/latest/"],
    ["name with one private address among public", "http://rebind.example.com/"],
    ["name → ::1", "http://v6loop.example.com/"],
    ["name → mapped private", "http://mapped.example.com/"],
    ["localtest.me", `http://localtest.me:${P}/`],
  ];

  test("at least 25 address forms are refused before any connection", async () => {
    const list = cases();
    expect(list.length).toBeGreaterThanOrEqual(25);
    const before = pages.totalHits();
    for (const [name, url] of list) {
      const err = await safeFetch(url, { signal: AbortSignal.timeout(5000), allowPrivate: false, lookup }).then(
        () => null,
        (e) => e,
      );
      expect(err, name).toBeInstanceOf(FetchError);
      expect(["blocked_address", "bad_scheme"], `${name}: ${(err as FetchError).reason}`).toContain(
        (err as FetchError).reason,
      );
    }
    expect(pages.totalHits()).toBe(before);
  });

  test("every redirect hop is re-checked: the fixture counts as public, its redirects to private targets are refused", async () => {
    // Offline no public host exists, so the policy treats exactly the fixture's address as
    // public; everything else keeps the real rules. "www.public.test" resolves to it.
    const isPublic = (ip: string) => ip === "127.0.0.1" || !isNonPublicAddress(ip);
    const viaName: Lookup = async (h) => (h === "www.public.test" ? ["127.0.0.1"] : lookup(h));
    const ok = await safeFetch(`http://www.public.test:${P}/redirect/2`, {
      signal: AbortSignal.timeout(5000),
      allowPrivate: false,
      lookup: viaName,
      isPublic,
    });
    expect(ok.status).toBe(200);
    expect(ok.url).toBe(`http://www.public.test:${P}/article/base-editing`);
    for (const target of [
      "http://169.254.169.254/latest/meta-data/",
      `http://127.0.0.2:${P}/`,
      `http://[::1]:${P}/`,
      `http://localhost:${P}/`,
      "http://intranet.example.com/",
      `http://2130706434:${P}/`,
      "file:///etc/passwd",
    ]) {
      const before = pages.hits("/redirect-to");
      const err = await safeFetch(`http://www.public.test:${P}/redirect-to?url=${encodeURIComponent(target)}`, {
        signal: AbortSignal.timeout(5000),
        allowPrivate: false,
        lookup: viaName,
        isPublic,
      }).then(
        () => null,
        (e) => e,
      );
      expect(["blocked_address", "bad_scheme"], target).toContain((err as FetchError).reason);
      expect(pages.hits("/redirect-to")).toBe(before + 1);
    }
    expect(pages.hits("/")).toBe(0);
  });

  test("plain http connects to the vetted address, sending the name as Host", async () => {
    const viaName: Lookup = async () => ["127.0.0.1"];
    const res = await safeFetch(`http://www.public.test:${P}/article/base-editing`, {
      signal: AbortSignal.timeout(5000),
      allowPrivate: false,
      lookup: viaName,
      isPublic: (ip) => ip === "127.0.0.1",
    });
    expect(res.status).toBe(200);
  });

  test("https connects to the vetted address yet verifies the certificate against the name", async () => {
    const tls = startTlsServer();
    try {
      // Both names resolve to the fixture's address; only one is on its certificate. If the
      // pinned connection checked the certificate against the IP, or sent no SNI, both fail;
      // if it skipped the check, both pass.
      const viaName: Lookup = async () => ["127.0.0.1"];
      const o = {
        signal: AbortSignal.timeout(5000),
        allowPrivate: false,
        lookup: viaName,
        isPublic: (ip: string) => ip === "127.0.0.1",
        ca: TEST_CERT,
      };
      const ok = await safeFetch(`https://${CERT_NAME}:${tls.port}/page`, o);
      expect(new TextDecoder().decode(ok.body)).toBe(`host=${CERT_NAME}:${tls.port} path=/page`);
      expect(ok.url).toBe(`https://${CERT_NAME}:${tls.port}/page`);
      const wrong = await safeFetch(`https://other.public.test:${tls.port}/page`, o).then(
        () => null,
        (e) => e,
      );
      expect((wrong as FetchError).reason).toBe("network");
      expect(tls.hits()).toBe(1);
      // Its redirect to the metadata service is refused before connecting.
      const redirected = await safeFetch(`https://${CERT_NAME}:${tls.port}/to-metadata`, o).then(
        () => null,
        (e) => e,
      );
      expect((redirected as FetchError).reason).toBe("blocked_address");
      expect(tls.hits()).toBe(2);
    } finally {
      tls.stop();
    }
  });

  test("a resolver that never answers is cut by the timeout, typed", async () => {
    const stalled: Lookup = () => new Promise(() => {});
    const err = await safeFetch("http://slow-dns.example.com/", {
      signal: AbortSignal.timeout(5000),
      allowPrivate: false,
      lookup: stalled,
      timeoutMs: 50,
    }).then(
      () => null,
      (e) => e,
    );
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).reason).toBe("timeout");
  });

  test("a malformed redirect target is a typed refusal", async () => {
    const err = await safeFetch(pages.url(`/redirect-to?url=${encodeURIComponent("http://[zz/")}`), {
      signal: AbortSignal.timeout(5000),
      allowPrivate: true,
    }).then(
      () => null,
      (e) => e,
    );
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).reason).toBe("bad_scheme");
  });

  test("address policy: public addresses pass, every private range is refused", () => {
    for (const a of ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
      expect(isNonPublicAddress(a), a).toBe(false);
    for (const a of [
      "127.0.0.1",
      "10.255.0.1",
      "172.31.255.255",
      "192.168.0.1",
      "169.254.0.5",
      "100.127.255.255",
      "0.1.2.3",
      "198.18.0.1",
      "240.0.0.1",
      "::",
      "::1",
      "fe80::abcd",
      "fd12::1",
      "ff02::1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
      "2001:db8::1",
      "::127.0.0.1",
      "2002:c0a8:101::1",
    ]) {
      expect(isNonPublicAddress(a), a).toBe(true);
    }
  });

  test("allowPrivate (tests, closed intranets) reaches loopback but keeps the scheme check", async () => {
    const ok = await safeFetch(pages.url("/article/base-editing"), {
      signal: AbortSignal.timeout(5000),
      allowPrivate: true,
    });
    expect(ok.status).toBe(200);
    const err = await safeFetch("file:///etc/passwd", { signal: AbortSignal.timeout(5000), allowPrivate: true }).then(
      () => null,
      (e) => e,
    );
    expect((err as FetchError).reason).toBe("bad_scheme");
  });
});
