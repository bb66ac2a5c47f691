import { readBodyCapped } from "../../util/read-capped.ts";
import { nextTurn } from "../../util/turns.ts";
import { keepUpstream, readBodyPrefix, upstreamMessage } from "../../util/upstream-text.ts";
import { SearchError } from "./search-error.ts";

export const USER_AGENT = "research-query/0.1";
/** A provider that hasn't answered in this long is treated as down for this query. */
export const DEFAULT_TIMEOUT_MS = 8000;
/** arXiv and Crossref are often slower than the others; they get a little more time by default. */
export const SLOW_PROVIDER_TIMEOUT_MS = 10_000;
/** A runaway or hostile upstream can't make us buffer more than this per call. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface ProviderRequest {
  /** The caller's (run's) signal; its abort ends the call at once. */
  signal: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>;
  method?: "GET" | "POST";
  /** Sent as JSON. */
  body?: unknown;
  /** "text" for XML feeds (arXiv); "json" parses. */
  as?: "json" | "text";
  /** The provider's own reading of an error body (arXiv's Atom error entry); JSON and plain text are read without it. */
  errorText?: (body: string) => string | undefined;
}

/**
 * One provider API call under the run's signal and the provider's own timeout, with
 * every failure typed as a SearchError; a non-2xx answer's error body is read (capped)
 * for the upstream's own message, scrubbed of secrets. Provider addresses are the operator's
 * configuration (SearXNG often runs on localhost), so they don't pass through the
 * page-fetch SSRF guard.
 */
export async function providerFetch<T = unknown>(provider: string, url: string, o: ProviderRequest): Promise<T> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([o.signal, timeout]);
  const failure = (e: unknown, fallback: SearchError): SearchError => {
    if (o.signal.aborted) return new SearchError(provider, "aborted", "the run was aborted");
    if (timeout.aborted) return new SearchError(provider, "timeout", `no answer within ${timeoutMs} ms`);
    return e instanceof SearchError ? e : fallback;
  };
  let res: Response;
  try {
    res = await fetch(url, {
      method: o.method ?? "GET",
      signal,
      redirect: "follow",
      headers: {
        "user-agent": USER_AGENT,
        accept: o.as === "text" ? "application/atom+xml, application/xml;q=0.9, text/xml;q=0.8" : "application/json",
        ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
        ...o.headers,
      },
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
  } catch (e) {
    throw failure(e, new SearchError(provider, "network", e instanceof Error ? e.message : String(e)));
  }
  if (!res.ok) {
    // The upstream's own words say why (bad query, key refused, quota spent); the status alone rarely does.
    const said = await readBodyPrefix(res).then(
      (body) => o.errorText?.(body) ?? upstreamMessage(body, res.headers.get("content-type")),
      () => undefined,
    );
    if (o.signal.aborted) throw new SearchError(provider, "aborted", "the run was aborted");
    const detail = said ? keepUpstream(said, Object.values(o.headers ?? {})) || undefined : undefined;
    throw new SearchError(
      provider,
      "http_status",
      `HTTP ${res.status}${detail ? `: ${detail}` : ""}`,
      res.status,
      detail,
    );
  }
  let text: string;
  try {
    text = await readCapped(res, provider);
  } catch (e) {
    throw failure(e, new SearchError(provider, "network", e instanceof Error ? e.message : String(e)));
  }
  // What this answer sets off (parsing, ranking, the next stage) waits behind new requests (src/util/turns.ts).
  await nextTurn();
  if (o.as === "text") return text as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new SearchError(provider, "bad_payload", "the answer is not valid JSON");
  }
}

async function readCapped(res: Response, provider: string): Promise<string> {
  const tooLarge = () => new SearchError(provider, "bad_payload", `answer larger than ${MAX_BODY_BYTES} bytes`);
  // A declared size over the cap is refused before reading a byte.
  if (Number(res.headers.get("content-length")) > MAX_BODY_BYTES) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  return new TextDecoder().decode(await readBodyCapped(res, MAX_BODY_BYTES, tooLarge));
}
