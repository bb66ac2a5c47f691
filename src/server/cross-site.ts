/**
 * CSRF defence: a browser marks requests started by another site with
 * Sec-Fetch-Site: cross-site; a write from there to the cookie-authenticated API is
 * someone else's page acting with the user's session. Refused before anything else,
 * with or without a cookie (no legitimate cross-site write exists outside the two
 * CORS-open query endpoints, which never reach this app).
 */
export function isCrossSiteWrite(request: Request): boolean {
  const m = request.method;
  if (m !== "POST" && m !== "DELETE") return false;
  return request.headers.get("sec-fetch-site")?.toLowerCase() === "cross-site";
}
