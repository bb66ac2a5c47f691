/**
 * CSRF defence for the cookie-authenticated API (sign-in, the Console, the web client's
 * runs). Threat: another site's page writing with the user's session, or signing the user in
 * to the attacker's account (login CSRF). A write is refused before anything else, with or
 * without a cookie, when the browser marks it Sec-Fetch-Site: cross-site, or — for browsers
 * that don't send that header — when its Origin is present and not ours; `Origin: null`
 * (sandboxed frames, data: URLs, some redirects) is never ours. No legitimate cross-site write
 * exists outside the two CORS-open query endpoints, which never reach this app. A request
 * without Origin (curl, server-side clients) passes: no browser sends a cross-site write so.
 */
export function isCrossSiteWrite(request: Request, ownOrigin: string | null): boolean {
  const m = request.method;
  if (m !== "POST" && m !== "DELETE" && m !== "PUT" && m !== "PATCH") return false;
  if (request.headers.get("sec-fetch-site")?.toLowerCase() === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  return ownOrigin ? origin.toLowerCase() !== ownOrigin : !matchesHost(origin, request.headers.get("host"));
}

/** PUBLIC_URL's origin ("https://rq.example.com"), or null when unset. */
export function originOf(publicUrl: string | undefined): string | null {
  if (!publicUrl) return null;
  try {
    return new URL(publicUrl).origin.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Without PUBLIC_URL our origin is whatever Host the client reached us by. The scheme is
 * not compared: behind a TLS-terminating proxy we see http while the browser says https.
 */
function matchesHost(origin: string, host: string | null): boolean {
  if (!host) return false;
  try {
    const u = new URL(origin);
    if (u.protocol !== "http:" && u.protocol !== "https:") return false;
    return u.host === new URL(`${u.protocol}//${host}`).host;
  } catch {
    return false;
  }
}
