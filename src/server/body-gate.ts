import { sessionAccount } from "../auth/session-cookie.ts";
import { UPLOAD_PATH } from "../collections/uploads/upload-routes.ts";
import { AppError } from "../contract/errors.ts";
import { isStorableText, unstorableMessage } from "../contract/storable-text.ts";
import { parseJsonObject, readRequestBody } from "../http/request-body.ts";
import type { Store } from "../store/types.ts";

/** The web client's run routes read their own body after their credential check (runs/http/query-body.ts). */
const OWN_BODY = new Set(["/api/v1/research", "/api/v1/research/stream"]);

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * Every write of the accounts and Console routes has its body read here, before Elysia sees
 * it: at most MAX_BODY_BYTES within BODY_TIMEOUT_MS (http/request-body.ts), and, when not empty, a
 * JSON object sent as JSON. Elysia's parser let broken JSON or an array through as "no body"
 * (a key was created). Threat: login CSRF — a plain HTML form (urlencoded, multipart or
 * text/plain, which browsers send cross-site without a preflight) signing the victim in to the
 * attacker's account on browsers without Sec-Fetch-Site. The Console checks its session
 * first, as the query endpoints check the key before the body (src/runs/service.ts). Returns the
 * request to hand on (a copy carrying the body read) or throws AppError.
 */
export async function gateBody(store: Store, request: Request, path: string, bodyTimeoutMs?: number): Promise<Request> {
  const method = request.method;
  refuseUnstorableUrl(request.url);
  if (method === "GET" || method === "HEAD" || method === "OPTIONS" || OWN_BODY.has(path)) return request;
  if (path.startsWith("/api/console/") && !(await sessionAccount(store, request)))
    throw new AppError("unauthorized", "sign in first: this endpoint needs the session cookie");
  // An upload's multipart body is streamed to disk by its route (src/collections/uploads/upload-intake.ts), after
  // this session check and the cross-site one: never read into memory here.
  if (method === "POST" && UPLOAD_PATH.test(path)) return request;
  const text = request.body ? await readRequestBody(request, bodyTimeoutMs) : "";
  if (!text.trim()) return new Request(request.url, { method, headers: withoutBodyHeaders(request.headers) });
  if (!JSON_TYPE.test(request.headers.get("content-type") ?? ""))
    throw new AppError("invalid_request", "send the body as JSON (Content-Type: application/json)");
  parseJsonObject(text, "the request body must be a JSON object");
  return new Request(request.url, { method, headers: request.headers, body: text });
}

/**
 * A NUL sent percent-encoded in the path or the query (the only way into a URL) is refused
 * as the body's would be (contract/storable-text.ts): a name in the path reaches the store.
 */
function refuseUnstorableUrl(url: string): void {
  if (!url.includes("%00")) return;
  const u = new URL(url);
  const decoded = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  if (!isStorableText(decoded(u.pathname))) throw new AppError("invalid_request", unstorableMessage("the path"));
  for (const [k, v] of u.searchParams)
    if (!isStorableText(k) || !isStorableText(v))
      throw new AppError("invalid_request", unstorableMessage("a query parameter"));
}

/** An empty body is no body: the routes' schemas then see "absent", not "". */
function withoutBodyHeaders(h: Headers): Headers {
  const out = new Headers(h);
  out.delete("content-length");
  out.delete("content-type");
  out.delete("transfer-encoding");
  return out;
}
