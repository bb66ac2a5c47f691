import { type StreamEvent, sseEventText } from "../../contract/events.ts";

/** Writes one event of the stream with its `id:`; false once the client is gone. */
export type SseSend = (e: StreamEvent, id: string) => boolean;

export interface SseOptions {
  keepAliveMs: number;
  /** The `retry:` hint the stream starts with: how long a reconnecting client waits (ms). */
  retryMs: number;
  /** The request's signal: aborted when Bun notices the client left. */
  requestSignal: AbortSignal;
  headers?: Record<string, string>;
}

const enc = new TextEncoder();

/**
 * A text/event-stream response. `body` runs with `send` and an AbortSignal that fires when
 * the client goes away (Bun doesn't signal that reliably, so enqueue failures and stream
 * cancellation count too). Comments keep proxies and Bun's idle timer from cutting a
 * quiet stream; each is one line with no blank line after it, because a blank line ends a
 * message and @microsoft/fetch-event-source hands a comment-only message to `onmessage` as
 * an empty event (README "Safe retries"). The `retry:` hint rides in the first write, for
 * the same reason. `body` must send its own final event; errors inside it are its to catch,
 * because nothing thrown after the first chunk can reach the client.
 */
export function sseResponse(body: (send: SseSend, gone: AbortSignal) => Promise<void>, opts: SseOptions): Response {
  const gone = new AbortController();
  let timer: ReturnType<typeof setInterval> | undefined;
  let lastWrite = Date.now();
  let closed = false;
  let hint = `retry: ${opts.retryMs}\n`;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string): boolean => {
        if (closed) return false;
        try {
          controller.enqueue(enc.encode(hint + text));
          hint = "";
          lastWrite = Date.now();
          return true;
        } catch {
          gone.abort("client_closed");
          return false;
        }
      };
      const onReqAbort = () => gone.abort("client_closed");
      if (opts.requestSignal.aborted) onReqAbort();
      else opts.requestSignal.addEventListener("abort", onReqAbort, { once: true });
      const half = Math.max(5, Math.floor(opts.keepAliveMs / 2));
      timer = setInterval(() => {
        if (Date.now() - lastWrite >= half) write(": keep-alive\n");
      }, half);
      const send: SseSend = (e, id) => write(sseEventText(e, id));
      void body(send, gone.signal).finally(() => {
        clearInterval(timer);
        opts.requestSignal.removeEventListener("abort", onReqAbort);
        if (!closed) {
          closed = true;
          try {
            controller.close();
          } catch {
            /* already gone */
          }
        }
      });
    },
    cancel() {
      closed = true;
      clearInterval(timer);
      gone.abort("client_closed");
    },
  });
  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
      ...opts.headers,
    },
  });
}
