import { AppError } from "../contract/errors.ts";
import { isStorableText, unstorableMessage } from "../contract/storable-text.ts";
import { parseJsonObject, readRequestBody } from "../http/request-body.ts";
import type { Declaration } from "../http/route.ts";

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** The account the gate resolved for a request it handed on: the handler's, without a second read. */
const resolved = new WeakMap<Request, unknown>();
export const gatedAccount = <A>(request: Request): A | null => (resolved.get(request) as A | undefined) ?? null;

/**
 * Every request but the `key` routes' passes here before Elysia routes it, and is treated as
 * its route's declaration says (http/route.ts), never by its path. The session is resolved once,
 * here, and handed to the handler (gatedAccount); a `session` route without one is refused
 * before its body is read, as the query endpoints check the key first (src/runs/service.ts).
 * Then a `json` route's body is read: at most MAX_BODY_BYTES within BODY_TIMEOUT_MS
 * (http/request-body.ts), and, when not empty, a JSON object sent as JSON. Elysia's parser let
 * broken JSON or an array through as "no body" (a key was created). Threat: login CSRF — a
 * plain HTML form (urlencoded, multipart or text/plain, which browsers send cross-site without
 * a preflight) signing the victim in to the attacker's account on browsers without
 * Sec-Fetch-Site. An `own` route reads its stream itself (an upload is streamed to disk, never
 * into memory here). A request no route declares has its body checked as `json`, then Elysia
 * answers 404. Returns the request to hand on (a copy carrying the body read) or throws AppError.
 */
export async function gateBody<A>(
  request: Request,
  route: Declaration | undefined,
  session: (request: Request) => Promise<A | null>,
  bodyTimeoutMs?: number,
): Promise<Request> {
  const method = request.method;
  refuseUnstorableUrl(request.url);
  let account: A | null = null;
  if (route?.auth === "session" || route?.auth === "optional-session") {
    account = await session(request);
    if (!account && route.auth === "session")
      throw new AppError("unauthorized", "sign in first: this endpoint needs the session cookie");
  }
  const out = await withBody(request, method, route, bodyTimeoutMs);
  if (account) resolved.set(out, account);
  return out;
}

async function withBody(
  request: Request,
  method: string,
  route: Declaration | undefined,
  bodyTimeoutMs?: number,
): Promise<Request> {
  if (method === "GET" || method === "HEAD" || method === "OPTIONS" || route?.body === "own") return request;
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
