import { afterAll, describe, expect, test } from "bun:test";
import type { RunningServer } from "../../../src/server/server.ts";
import { createLogger } from "../../../src/util/logger.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { keyedClient, query, startTestServer } from "../../helpers/server.ts";
import { readSse } from "../../helpers/sse.ts";

/**
 * Which stream calls count as arrivals, the signal that holds the runs under way back a turn so a
 * crowd's first events go out first (docs/decisions/0123-arrivals-are-accepted-runs.md): only a
 * run the allowance accepted. A flood of refused calls from a spent key counted each one, and
 * held every other run back (its p50 from about 10 to 300 ms). Counted here through the running
 * server over HTTP, no clock involved: the server is told of each arrival.
 */

let arrivals = 0;
const server: RunningServer = startTestServer({
  engine: scriptedEngine(),
  env: { PLAN_RUNS_FREE: "1", LOG_LEVEL: "silent" },
  logger: createLogger("silent"),
  arrivals: {
    arrived: () => {
      arrivals++;
    },
  },
});
afterAll(() => server.stop(100));

const STREAM = "/api/query/stream";

describe("stream arrivals", () => {
  test("only an accepted run counts: refusals, resumes, replays and JSON calls do not", async () => {
    const { key } = await keyedClient(server.url);
    // The allowance's one run: accepted, it counts.
    const accepted = await query(server.url, key, { query: "the one run" }, { "idempotency-key": "k1" }, STREAM);
    expect(accepted.status).toBe(200);
    const rid = accepted.headers.get("x-request-id")!;
    expect((await readSse(accepted)).events.at(-1)!.event).toBe("final");
    expect(arrivals).toBe(1);

    // A flood from the spent key: every call refused 429, none counts.
    const flood = await Promise.all(
      Array.from({ length: 40 }, (_, i) => query(server.url, key, { query: `flood ${i}` }, {}, STREAM)),
    );
    for (const r of flood) {
      expect(r.status).toBe(429);
      expect(((await r.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("quota_exceeded");
    }
    // A body refused (400), a key reused for another question (422).
    const empty = await query(server.url, key, { query: "" }, {}, STREAM);
    expect(empty.status).toBe(400);
    await empty.body?.cancel();
    const reused = await query(server.url, key, { query: "another" }, { "idempotency-key": "k1" }, STREAM);
    expect(reused.status).toBe(422);
    await reused.body?.cancel();
    // The accepted run again, by its key and by Last-Event-ID: followers, nothing charged.
    const replay = await query(server.url, key, { query: "the one run" }, { "idempotency-key": "k1" }, STREAM);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    await readSse(replay);
    const resumed = await query(server.url, key, null, { "last-event-id": `${rid}:1` }, STREAM);
    expect(resumed.status).toBe(200);
    await readSse(resumed);
    // A bad key, and a JSON call.
    const bad = await query(server.url, "rq_nope", { query: "q" }, {}, STREAM);
    await readSse(bad);
    const json = await query(server.url, key, { query: "json" });
    expect(json.status).toBe(429);
    await json.body?.cancel();

    expect(arrivals).toBe(1);
  });
});
