/**
 * Headers on every answer of the service. Threats: another site framing the Console to trick
 * a click on "Revoke" or "Create key" (clickjacking: X-Frame-Options and CSP frame-ancestors),
 * a browser sniffing a JSON or text answer into script or HTML (nosniff), and run and key
 * pages' addresses leaking to the cited sites through Referer (Referrer-Policy).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

/** The web app's pages: no framing, no <base> or plugin tricks; scripts stay as Bun bundled them. */
export const PAGE_CSP = "frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/** Adds the security headers to a response we built (its headers are mutable). */
export function secure(res: Response): Response {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!res.headers.has(k)) res.headers.set(k, v);
  return res;
}
