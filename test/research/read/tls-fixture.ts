// A throwaway self-signed certificate for the name "www.public.test" (EC P-256, valid
// 2020–2120), made with openssl for these tests only; it protects nothing.
export const TEST_CERT = `
-----BEGIN CERTIFICATE-----
MIIBcDCCARagAwIBAgIBATAKBggqhkjOPQQDAjAaMRgwFgYDVQQDDA93d3cucHVi
bGljLnRlc3QwIBcNMjAwMTAxMDAwMDAwWhgPMjEyMDAxMDEwMDAwMDBaMBoxGDAW
BgNVBAMMD3d3dy5wdWJsaWMudGVzdDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IA
BNFttGdFPJrRYozwg11uDuK6PSqZD76EGRc4zqlB+62C2RAw1Qkyf2yEn5X9XTjI
s1TriBeUe+p59tAfB1bZrLajSzBJMBoGA1UdEQQTMBGCD3d3dy5wdWJsaWMudGVz
dDAMBgNVHRMBAf8EAjAAMB0GA1UdDgQWBBTrJStBAdTDSR6yJop1VjsQSwxDpDAK
BggqhkjOPQQDAgNIADBFAiEAvG+JelfkGaniKJqkJhaGdfF29GRy3eLKE6j5RO6R
KNsCIGGGPZ+PU4Nc/+WfnLqyZUQTB47a5eqDFbfZrvBdgY62
-----END CERTIFICATE-----
`.trim();

export const TEST_KEY = `
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgZ6sJrdzZ5ZDINjdI
AI8ZUQ5LCzBhPyrQIZuYH5eN80uhRANCAATRbbRnRTya0WKM8INdbg7iuj0qmQ++
hBkXOM6pQfutgtkQMNUJMn9shJ+V/V04yLNU64gXlHvqefbQHwdW2ay2
-----END PRIVATE KEY-----
`.trim();

/** The name the certificate is valid for. */
export const CERT_NAME = "www.public.test";

/** An https server on 127.0.0.1 answering with the Host it was asked for and the path. */
export function startTlsServer(): { port: number; hits: () => number; stop(): void } {
  let hits = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { cert: TEST_CERT, key: TEST_KEY },
    fetch(req) {
      hits++;
      const path = new URL(req.url).pathname;
      if (path === "/to-metadata")
        return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } });
      return new Response(`host=${req.headers.get("host")} path=${path}`, {
        headers: { "content-type": "text/plain" },
      });
    },
  });
  return { port: server.port!, hits: () => hits, stop: () => server.stop(true) };
}
