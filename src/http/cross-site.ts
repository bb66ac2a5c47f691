/**
 * CSRF defence: a browser marks requests started by another site with
 * Sec-Fetch-Site: cross-site; a cookie-carrying write from there is someone else's page
 * acting with the user's session, so it is refused before anything else runs.
 */
export function isCrossSiteCookieWrite(request: Request): boolean {
  const m = request.method;
  if (m !== "POST" && m !== "DELETE") return false;
  if (!request.headers.get("cookie")) return false;
  return request.headers.get("sec-fetch-site")?.toLowerCase() === "cross-site";
}
