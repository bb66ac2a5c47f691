import type { Envelope } from "../contract/envelope.ts";
import type { McpBackend, RunProgress } from "../mcp/backend.ts";
import { errorsText } from "../runs/answer-text.ts";
import type { Logger } from "../util/logger.ts";
import { chatRequest, readChatBody } from "./chat-request.ts";
import { answerEvents, chatCompletion, chunkEvent, completionIds, errorEvent } from "./chat-shapes.ts";
import { errorResponse, type OpenAiError, openAiError, openAiErrorOf } from "./openai-errors.ts";

export interface ChatDeps {
  /** The backend a caller's call runs on: with --server, one that presents the caller's key. */
  backendFor(apiKey: string | undefined): McpBackend;
  /** Between two keep-alive comments of a stream. */
  keepAliveMs: number;
  logger: Logger;
  /** Lifts Bun's idle timeout for this request: a run is bounded by its own deadline. */
  hold(req: Request): void;
  /** Work the drain waits for: a run and the stream that carries it. */
  track(done: Promise<unknown>): void;
}

type Outcome = { env: Envelope } | { failure: unknown };

/** The server's allowance fields (README "The API"), passed on so a client paces on them as on the server's. */
const FORWARDED = ["ratelimit", "ratelimit-policy"] as const;

const bearer = (req: Request) => /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "")?.[1];

/**
 * `POST /v1/chat/completions`: one research run per call, answered as OpenAI answers
 * (docs/decisions/0176-progress-as-reasoning.md). A stream's status is decided before its
 * first byte, so it waits for the run's first event: a refused call (key, allowance, body)
 * is then its HTTP error, never a 200 stream that fails.
 */
export async function chatCompletions(req: Request, deps: ChatDeps): Promise<Response> {
  const log = (e: OpenAiError, fields: Record<string, unknown>) =>
    deps.logger.info("chat_completion", { status: e.status, code: e.body.error.code, ...fields });
  let ask: ReturnType<typeof chatRequest>;
  try {
    ask = chatRequest(await readChatBody(req));
  } catch (e) {
    const err = openAiErrorOf(e, (f) => deps.logger.error("chat_error", f));
    log(err, {});
    return errorResponse(err);
  }
  const ids = completionIds(crypto.randomUUID());
  const queue: RunProgress[] = [];
  let wake = Promise.withResolvers<void>();
  let retryAfter: string | null = null;
  // The latest the server sent (a rejoined stream reports the allowance as it stands then).
  const limits: Record<string, string> = {};
  let held = false;
  const stop = new AbortController();
  // A client that leaves stops the following: a server's run ends and is recorded there; a local one stops.
  req.signal.addEventListener("abort", () => stop.abort(new Error("the client disconnected")), { once: true });
  // Said when it happens: the run goes on (with --server) and its end is logged later.
  stop.signal.addEventListener("abort", () => deps.logger.info("chat_client_left", { stream: ask.stream }), {
    once: true,
  });
  const outcome: Promise<Outcome> = deps
    .backendFor(bearer(req))
    .research(ask.question, {
      signal: stop.signal,
      onProgress: (p) => {
        // Threat: connection exhaustion. Only an accepted run (its first event) lifts the idle
        // timeout; a flood of keyless calls is refused and closed like any other.
        if (!held) {
          held = true;
          deps.hold(req);
        }
        queue.push(p);
        wake.resolve();
      },
      onHeaders: (h) => {
        retryAfter = h.get("retry-after") ?? retryAfter;
        for (const name of FORWARDED) {
          const v = h.get(name);
          if (v !== null) limits[name] = v;
        }
      },
      ...(req.headers.get("idempotency-key") ? { idempotencyKey: `openai-${req.headers.get("idempotency-key")}` } : {}),
    })
    .then(
      (env) => ({ env }),
      (failure: unknown) => ({ failure }),
    );
  deps.track(outcome);
  const failed = (o: Outcome): OpenAiError | undefined => {
    if ("failure" in o && stop.signal.aborted) return openAiError("internal_error", "the client disconnected");
    if ("failure" in o) return openAiErrorOf(o.failure, (f) => deps.logger.error("chat_error", f));
    if (o.env.status === "ok") return undefined;
    return openAiError(o.env.errors[0]?.code ?? "internal_error", errorsText(o.env), retryAfter);
  };
  const done = (o: Outcome, err: OpenAiError | undefined, fields: Record<string, unknown>) => {
    const run = "env" in o ? { request_id: o.env.request_id } : {};
    // Nobody hears the answer of a client that left: logged as such, not as a failure.
    if (stop.signal.aborted) deps.logger.info("chat_completion", { client: "gone", ...run, ...fields });
    else if (err) log(err, { ...run, ...fields });
    else deps.logger.info("chat_completion", { status: 200, ...run, ...fields });
  };

  if (!ask.stream) {
    const o = await outcome;
    const err = failed(o);
    done(o, err, { stream: false });
    if (err || !("env" in o)) return errorResponse(err!, limits);
    return Response.json(chatCompletion(o.env, ids), { headers: { "cache-control": "no-store", ...limits } });
  }
  const first = await Promise.race([wake.promise.then(() => null), outcome]);
  if (first) {
    const err = failed(first);
    if (err) {
      done(first, err, { stream: true });
      return errorResponse(err, limits);
    }
  }
  const enc = new TextEncoder();
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    async start(ctl) {
      const send = (text: string) => {
        if (open) ctl.enqueue(enc.encode(text));
      };
      // Proxies cut a connection that stays quiet; a comment keeps it busy and no client shows it.
      const beat = setInterval(() => send(": keep-alive\n\n"), deps.keepAliveMs);
      send(chunkEvent(ids, { role: "assistant", content: "" }));
      let o: Outcome | null = null;
      while (!o) {
        for (const p of queue.splice(0)) send(chunkEvent(ids, { reasoning_content: `${p.stage}: ${p.message}\n` }));
        wake = Promise.withResolvers<void>();
        o = await Promise.race([wake.promise.then(() => null), outcome]);
      }
      for (const p of queue.splice(0)) send(chunkEvent(ids, { reasoning_content: `${p.stage}: ${p.message}\n` }));
      clearInterval(beat);
      const err = failed(o);
      done(o, err, { stream: true });
      if (err) send(errorEvent(err.body));
      else if ("env" in o) send(answerEvents(o.env, ids, ask.includeUsage));
      if (open) ctl.close();
    },
    cancel() {
      open = false;
      stop.abort(new Error("the client disconnected"));
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
      ...limits,
    },
  });
}
