import { SearchError } from "./search-error.ts";

export const USER_AGENT = "research-query/0.1 (+https://github.com/research-query)";

export interface HttpOptions {
  signal: AbortSignal;
  timeoutMs: number;
  headers?: Record<string, string>;
  method?: "GET" | "POST";
  body?: unknown;
  /** "text" for XML feeds (arXiv). */
  as?: "json" | "text";
}

/**
 * One provider API call under the run's signal and the provider's own timeout, with
 * failures typed. Provider addresses are the operator's configuration (SearXNG often
 * runs on localhost), so they don't pass through the page-fetch SSRF guard.
 */
export async function httpGet<T = unknown>(provider: string, url: string, o: HttpOptions): Promise<T> {
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = AbortSignal.any([o.signal, timeout]);
  let res: Response;
  try {
    res = await fetch(url, {
      method: o.method ?? "GET", signal, redirect: "follow",
      headers: { "user-agent": USER_AGENT, accept: o.as === "text" ? "application/atom+xml, application/xml, text/xml" : "application/json", ...(o.body ? { "content-type": "application/json" } : {}), ...o.headers },
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
  } catch (e) {
    if (o.signal.aborted) throw new SearchError(provider, "aborted", "aborted");
    if (timeout.aborted) throw new SearchError(provider, "timeout", `no answer within ${o.timeoutMs} ms`);
    throw new SearchError(provider, "network", (e as Error).message);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new SearchError(provider, "http_status", `HTTP ${res.status}`, res.status);
  }
  try {
    const text = await res.text();
    return (o.as === "text" ? text : JSON.parse(text)) as T;
  } catch (e) {
    if (timeout.aborted) throw new SearchError(provider, "timeout", `no answer within ${o.timeoutMs} ms`);
    if (o.signal.aborted) throw new SearchError(provider, "aborted", "aborted");
    throw new SearchError(provider, "bad_payload", "the answer is not valid JSON");
  }
}
