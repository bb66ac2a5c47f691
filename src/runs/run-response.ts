import { AppError, isAppError, KEY_FAILURE_CODES } from "../contract/errors.ts";
import { json } from "../server/responses.ts";
import type { Logger } from "../util/logger.ts";
import { refusalEnvelope } from "./envelope.ts";
import { readQueryBody } from "./query-body.ts";
import type { Caller, Identity, RunService } from "./service.ts";
import { sseResponse } from "./sse.ts";

export interface RunHttp {
  runs: RunService;
  logger: Logger;
  keepAliveMs: number;
}

/**
 * One run over HTTP, as JSON (the envelope when the run ends) or as an SSE stream of the
 * service's events. Refusals carry the envelope; on a stream the key failures arrive as
 * `error` + `final` on HTTP 200 (README "The API"). `headers` go on every answer. A credential
 * refusal is returned without a promise in between (the commonest refusal).
 */
export function runResponse(
  http: RunHttp,
  request: Request,
  mode: "json" | "stream",
  caller: Caller,
  endpoint: string,
  headers: Record<string, string>,
): Response | Promise<Response> {
  const requestId = crypto.randomUUID();
  const startedAt = performance.now();
  const h = { ...headers, "x-request-id": requestId };
  const refuse = (e: unknown): Response => {
    let err = e as AppError;
    if (!isAppError(e)) {
      http.logger.error("query_failed", { request_id: requestId, error: String(e) });
      err = new AppError("internal_error", "internal error", 500);
    }
    const env = refusalEnvelope(requestId, startedAt, [{ code: err.code, message: err.message }]);
    if (mode === "stream" && KEY_FAILURE_CODES.has(err.code)) {
      return sseResponse(
        async (send) => {
          send({ event: "error", data: { code: err.code, message: err.message } });
          send({ event: "final", data: env });
        },
        { keepAliveMs: http.keepAliveMs, requestSignal: request.signal, headers: h },
      );
    }
    return json(env, err.status, err.headers ? { ...h, ...err.headers } : h);
  };

  let who: Identity | Promise<Identity>;
  try {
    who = http.runs.authenticate(caller);
  } catch (e) {
    return refuse(e);
  }
  const admitted = (async () =>
    http.runs.admit(await who, () => readQueryBody(request), endpoint, requestId, startedAt))();
  return admitted.then((run) => {
    if (mode === "json") return http.runs.run(run, { signal: request.signal }).then((env) => json(env, 200, h));
    return sseResponse(
      async (send, gone) => {
        await http.runs.run(run, {
          signal: gone,
          onEvent: send,
        });
      },
      { keepAliveMs: http.keepAliveMs, requestSignal: request.signal, headers: h },
    );
  }, refuse);
}
