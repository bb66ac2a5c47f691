import { expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

/** A raw keep-alive connection that sends one request and then stays silent. */
function silentAfter(port: number, request: string): Promise<{ sock: Socket; closed: Promise<void>; answer: string }> {
  return new Promise((resolve) => {
    const sock = connect(port, "127.0.0.1");
    let answer = "";
    const closed = new Promise<void>((r) => sock.on("close", () => r()));
    sock.on("error", () => {});
    sock.on("data", (d) => {
      answer += d.toString();
      // A JSON answer ends with its body, a (refusal) stream with the last chunk.
      if (/\r\n\r\n[\s\S]*(\}|0\r\n\r\n)$/.test(answer)) resolve({ sock, closed, answer });
    });
    sock.write(request);
  });
}

test("connections whose call was refused are closed by the idle timeout, and /healthz stays reachable", async () => {
  // 1,100 such connections made /healthz time out: the run routes lifted the idle timeout
  // for every request, before the key or the body was looked at.
  const s = startTestServer({ engine: scriptedEngine(), idleTimeoutSec: 1 });
  try {
    const body = '{"query":"q"}';
    const conns = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        silentAfter(
          s.port,
          `POST ${i % 2 ? "/api/query/stream" : "/api/query"} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        ),
      ),
    );
    for (const c of conns) expect(c.answer).toContain("missing_api_key");
    // Bun checks idle connections on a coarse tick: waited for as an event (every socket's
    // close), bounded only by the test's timeout, not by a guess at the tick.
    await Promise.all(conns.map((c) => c.closed));
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  } finally {
    await s.stop(100);
  }
});
