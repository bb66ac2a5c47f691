/** What one stream did: when its first event arrived, and how it ended. */
export interface StreamResult {
  firstEventMs: number;
  ok: boolean;
  /** When the request was sent (ms on the machine's clock: performance.timeOrigin + now). */
  sentAt: number;
  /** The response's X-Request-Id (the run's id), for matching the server's trace. */
  requestId?: string;
}

/**
 * One POST to an SSE endpoint over a raw socket, timing the first `event:` line. A raw
 * socket instead of fetch: with thousands of streams the client's own cost (Response
 * objects, body readers) would be measured as the server's latency.
 */
export function rawStream(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: string,
  onFirstEvent?: () => void,
): Promise<StreamResult> {
  const request = `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  return new Promise((resolve) => {
    const t0 = performance.now();
    let firstEventMs = NaN,
      text = "",
      settled = false;
    const done = (ok: boolean) => {
      if (!settled) {
        settled = true;
        const requestId = /\r\nx-request-id: ([^\r]+)/i.exec(text)?.[1];
        resolve({ firstEventMs, ok, sentAt: performance.timeOrigin + t0, requestId });
      }
    };
    Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(s) {
          s.write(request);
        },
        data(s, chunk) {
          text += chunk.toString("latin1");
          if (Number.isNaN(firstEventMs) && text.includes("event: ")) {
            firstEventMs = performance.now() - t0;
            onFirstEvent?.();
          }
          // The stream's last event; its data line carries the envelope's status.
          const i = text.indexOf("event: final");
          if (i >= 0 && text.indexOf("\n\n", i) >= 0) {
            done(/"status":"ok"/.test(text.slice(i)));
            s.end();
          }
        },
        close() {
          done(false);
        },
        error() {
          done(false);
        },
      },
    }).catch(() => done(false));
  });
}
