import { describe, expect, test } from "bun:test";
import { followRemoteRun } from "../../src/mcp/remote-stream.ts";

// End to end by time: the client really waits out Retry-After and its backoff (src/mcp/remote-stream.ts).

const RUN = "0b7e4c1e-8a53-4a5e-9d0f-2f1d3c4b5a69";
const envelope = (status: "ok" | "error", errors: { code: string; message: string }[] = []) => ({
  request_id: RUN,
  status,
  answer: status === "ok" ? "Done [S1]." : null,
  sources: [],
  usage: { latency_ms: 1, tokens_in: 0, tokens_out: 0 },
  errors,
});
const sse = (events: [number, string, unknown][], final = false) =>
  events.map(([seq, name, data]) => `id: ${RUN}:${seq}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join("") +
  (final ? `id: ${RUN}:${events.length + 1}\nevent: final\ndata: ${JSON.stringify(envelope("ok"))}\n\n` : "");
const progress = (stage: string): [string, unknown] => ["progress", { stage, message: stage }];
const STAGES = ["planning", "searching", "reading", "writing"].map(progress);

/**
 * A server that answers the n-th call with `answers[n]` (the wire format of
 * /api/query/stream, cut where a network would cut it), recording each call's headers.
 */
function scriptedServer(answers: ((req: Request) => Response)[]) {
  const calls: Headers[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      calls.push(req.headers);
      return answers[calls.length - 1]!(req);
    },
  });
  return { url: server.url.href, calls, stop: () => server.stop(true) };
}

const stream = (body: string) => new Response(body, { headers: { "content-type": "text/event-stream" } });

describe("followRemoteRun: one run on a server, rejoined when the network breaks", () => {
  test("a run the server no longer knows by event id is replayed by its Idempotency-Key; events seen are passed on once", async () => {
    const s = scriptedServer([
      () => stream(sse(STAGES.slice(0, 2).map(([n, d], i) => [i + 1, n, d]))), // cut after two events
      () => Response.json(envelope("error", [{ code: "run_not_found", message: "gone" }]), { status: 404 }),
      () =>
        stream(
          sse(
            STAGES.map(([n, d], i) => [i + 1, n, d]),
            true,
          ),
        ),
    ]);
    try {
      const seen: string[] = [];
      const env = await followRemoteRun({ base: s.url, apiKey: "rq-k", userAgent: "t" }, "q", {
        signal: new AbortController().signal,
        onProgress: (p) => seen.push(p.stage),
      });
      expect(env.status).toBe("ok");
      expect(seen).toEqual(["planning", "searching", "reading", "writing"]);
      expect(s.calls.map((h) => h.get("last-event-id"))).toEqual([null, `${RUN}:2`, null]);
      const keys = new Set(s.calls.map((h) => h.get("idempotency-key")));
      expect(keys.size).toBe(1);
      expect([...keys][0]).toMatch(/^mcp-[0-9a-f-]{36}$/);
      expect(s.calls[0]!.get("authorization")).toBe("Bearer rq-k");
    } finally {
      s.stop();
    }
  });

  test("a draining server (503, Retry-After) and a proxy's 502 are tried again; a refusal's envelope is the answer", async () => {
    const s = scriptedServer([
      () =>
        Response.json(envelope("error", [{ code: "internal_error", message: "shutting down" }]), {
          status: 503,
          headers: { "retry-after": "1" },
        }),
      () => new Response("<html>Bad Gateway</html>", { status: 502, headers: { "content-type": "text/html" } }),
      () =>
        Response.json(envelope("error", [{ code: "quota_exceeded", message: "used up" }]), {
          status: 429,
          headers: { "retry-after": "86400" },
        }),
    ]);
    try {
      const env = await followRemoteRun({ base: s.url, apiKey: "rq-k", userAgent: "t" }, "q", {
        signal: new AbortController().signal,
        onProgress: () => {},
      });
      expect(env.errors).toEqual([{ code: "quota_exceeded", message: "used up" }]);
      expect(s.calls).toHaveLength(3);
    } finally {
      s.stop();
    }
  });

  test("an address that is not a research-query server is said to be so at once", async () => {
    const s = scriptedServer([() => new Response("Not Found", { status: 404 })]);
    try {
      const call = followRemoteRun({ base: `${s.url}prefix`, apiKey: undefined, userAgent: "t" }, "q", {
        signal: new AbortController().signal,
        onProgress: () => {},
      });
      await expect(call).rejects.toMatchObject({
        code: "server_unreachable",
        message: expect.stringContaining("/prefix/api/query/stream answered HTTP 404 without an envelope"),
      });
      expect(s.calls).toHaveLength(1);
    } finally {
      s.stop();
    }
  });
});
