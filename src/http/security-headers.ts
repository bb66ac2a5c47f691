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

/**
 * The web app's pages' one policy, sent as a header. Threat: script or content injected into a
 * page (an answer's HTML, a source's title) running or loading from elsewhere, and the page
 * framed. A `<meta>` policy would cover only what the HTML does once parsed and cannot say
 * frame-ancestors, so the header is the only place it is written. Scripts and styles stay as
 * Bun bundled them (files of this origin, none inline).
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Adds the security headers to a response we built (its headers are mutable). */
export function secure(res: Response): Response {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!res.headers.has(k)) res.headers.set(k, v);
  return res;
}
