import { endSpan, requestSpan, setRequestSpan, startServerSpan, tracingOn } from "../../util/tracing/spans.ts";

/**
 * A request's server span (the HTTP semantic conventions), its parent an incoming W3C
 * `traceparent`. Only the path is recorded, never the query string, headers or body: keys,
 * cookies and questions travel there (threat: secrets copied into a third party's trace store).
 */
export function beginRequestSpan(request: Request, path: string): void {
  if (!tracingOn()) return;
  const url = new URL(request.url);
  const span = startServerSpan(request.method, request.headers, {
    "http.request.method": request.method,
    "url.path": path,
    "url.scheme": url.protocol.replace(":", ""),
    "server.address": url.hostname,
    ...(url.port ? { "server.port": Number(url.port) } : {}),
  });
  setRequestSpan(request, span);
}

/** Ends the request's span with its route (the OpenAPI document's path, or "other") and status. */
export function endRequestSpan(request: Request, route: string, res: Response): void {
  const span = requestSpan(request);
  if (!span) return;
  span.updateName(`${request.method} ${route}`);
  span.setAttributes({
    "http.route": route,
    "http.response.status_code": res.status,
    "research.request_id": res.headers.get("x-request-id") ?? "",
  });
  endSpan(span, res.status >= 500 ? String(res.status) : undefined);
}
