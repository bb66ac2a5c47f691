import type { Envelope } from "../contract/envelope.ts";
import { AppError } from "../contract/errors.ts";
import { parseEventId } from "../contract/events.ts";
import { sseEvents } from "../research/llm/sse-events.ts";
import type { ResearchCall } from "./backend.ts";

export interface RemoteServer {
  /** The server's base address (a path prefix behind a proxy is kept). */
  base: string;
  apiKey: string | undefined;
  userAgent: string;
}

/**
 * Waits between tries. Before the run is known to be accepted the server is likely down or
 * the address wrong: a clear error within a second beats a hang. Once it runs, the run goes
 * on over there whatever the network does, so a broken stream is rejoined patiently.
 */
const BEFORE_ACCEPTED_MS = [250, 750];
const AFTER_ACCEPTED_MS = [500, 1000, 2000, 4000, 8000, 15000];
/** A Retry-After (a draining server says 5 s) is honoured up to this. */
const MAX_RETRY_AFTER_MS = 10_000;

type Step = { envelope: Envelope } | { retry: string; afterMs?: number } | { replay: string };

const isEnvelope = (v: unknown): v is Envelope =>
  typeof v === "object" && v !== null && "request_id" in v && "status" in v && Array.isArray((v as Envelope).errors);

/**
 * One research run on a server through POST /api/query/stream, to its `final` event
 * (README "MCP server: research from AI agents"). The call carries an Idempotency-Key, so a retry after a lost answer
 * never starts (or charges) a second run; a stream that breaks off is rejoined with
 * Last-Event-ID, and events already seen are not passed on twice. Refusals (bad key,
 * quota_exceeded, invalid_request) come back as their envelopes; only a server that cannot
 * be reached, or rejoined, throws (server_unreachable).
 */
export async function followRemoteRun(server: RemoteServer, question: string, call: ResearchCall): Promise<Envelope> {
  const url = new URL("api/query/stream", server.base.endsWith("/") ? server.base : `${server.base}/`);
  const base: Record<string, string> = {
    "content-type": "application/json",
    accept: "text/event-stream",
    "idempotency-key": call.idempotencyKey ?? `mcp-${crypto.randomUUID()}`,
    "user-agent": server.userAgent,
  };
  if (server.apiKey) base.authorization = `Bearer ${server.apiKey}`;
  const body = JSON.stringify({ query: question });
  let lastId: string | undefined;
  let seen = 0;
  let accepted = false;

  /** Reads one answer of the server: the envelope, or why and how to try again. */
  const read = async (res: Response): Promise<Step> => {
    call.onHeaders?.(res.headers);
    const type = res.headers.get("content-type") ?? "";
    if (res.status === 204) return { replay: "the stream had nothing after the last event seen" };
    if (res.status === 200 && type.startsWith("text/event-stream") && res.body) {
      accepted = true;
      for await (const ev of sseEvents(res.body)) {
        const id = ev.id === undefined ? null : parseEventId(ev.id);
        if (id) {
          if (id.seq <= seen) continue; // replayed after a rejoin: passed on already
          seen = id.seq;
          lastId = ev.id;
        }
        if (ev.event === "final") {
          const env: unknown = JSON.parse(ev.data);
          if (isEnvelope(env)) return { envelope: env };
          throw new AppError("server_unreachable", `${url.origin} sent a final event that is not an envelope`);
        }
        if (ev.event === "progress") {
          const p = JSON.parse(ev.data) as { stage?: unknown; message?: unknown };
          call.onProgress({ stage: String(p.stage ?? ""), message: String(p.message ?? "") });
        }
      }
      return { retry: "the stream broke off before its final event" };
    }
    const retryAfter = Number(res.headers.get("retry-after"));
    const afterMs =
      Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, MAX_RETRY_AFTER_MS) : undefined;
    const payload: unknown = type.includes("json")
      ? await res.json().catch(() => null)
      : await res.text().then(() => null);
    // A server that can search nothing says what to configure: waiting seconds and asking again changes nothing.
    if (isEnvelope(payload) && payload.errors.some((e) => e.code === "search_unavailable"))
      return { envelope: payload };
    if (res.status >= 502 && res.status <= 504) return { retry: `HTTP ${res.status}`, afterMs };
    if (isEnvelope(payload)) {
      if (lastId && payload.errors.some((e) => e.code === "run_not_found"))
        return { replay: "the server no longer knew the run by its event id" };
      return { envelope: payload };
    }
    if (res.status >= 500) return { retry: `HTTP ${res.status}`, afterMs };
    throw new AppError(
      "server_unreachable",
      `${url.href} answered HTTP ${res.status} without an envelope: is --server the address of a research-query server?`,
    );
  };

  for (let tries = 0; ; tries++) {
    let why: string;
    let afterMs: number | undefined;
    try {
      const headers = lastId ? { ...base, "last-event-id": lastId } : base;
      const step = await read(await fetch(url, { method: "POST", headers, body, signal: call.signal }));
      if ("envelope" in step) return step.envelope;
      if ("replay" in step) lastId = undefined; // the Idempotency-Key replays the run from its start
      why = "retry" in step ? step.retry : step.replay;
      afterMs = "retry" in step ? step.afterMs : 0;
    } catch (e) {
      if (call.signal.aborted || e instanceof AppError) throw e;
      why = e instanceof Error ? e.message : String(e);
    }
    const waits = accepted ? AFTER_ACCEPTED_MS : BEFORE_ACCEPTED_MS;
    if (tries >= waits.length)
      throw new AppError(
        "server_unreachable",
        `${url.origin}: ${why} (${tries + 1} tries${accepted ? "; the run may still finish on the server, its Console shows it" : ""})`,
      );
    await Bun.sleep(afterMs ?? waits[tries]!);
    if (call.signal.aborted) throw call.signal.reason;
  }
}
