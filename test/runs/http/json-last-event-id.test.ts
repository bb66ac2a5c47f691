import { describe, expect, test } from "bun:test";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { keyedClient, query, startTestServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

interface Env {
  request_id: string;
  status: string;
  answer: string | null;
  errors: { code: string }[];
}

/** POST /api/query (JSON) with a Last-Event-ID: that run's envelope, never a new charged run. */
describe("Last-Event-ID on POST /api/query", () => {
  test("names a run of the caller: its envelope, no second run, no second charge", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const eng = scriptedEngine({ gate });
    const s = startTestServer({ engine: eng });
    try {
      const { c, key } = await keyedClient(s.url);
      const first = query(s.url, key, { query: "q" });
      await eng.started;
      const runId = s.sql.query<{ id: string }, []>("SELECT id FROM runs").get()!.id;
      // Sent while the run is held: the JSON retry attaches and waits for its end.
      const live = query(s.url, key, { query: "q" }, { "last-event-id": `${runId}:1` });
      release();
      const [a, b] = await Promise.all([first, live]);
      const envA = (await a.json()) as Env;
      const envB = (await b.json()) as Env;
      expect(b.status).toBe(200);
      expect(b.headers.get("idempotent-replayed")).toBe("true");
      expect(b.headers.get("x-request-id")).toBe(runId);
      expect(envB).toEqual(envA);
      expect(envB).toMatchObject({ request_id: runId, status: "ok", answer: "Answer text [S1]." });
      // Once it has ended: the same envelope, from the store, whatever the sequence named.
      await s.deps.runs.idle();
      const ended = await query(s.url, key, { query: "another question" }, { "last-event-id": `${runId}:999` });
      expect(ended.status).toBe(200);
      expect((await ended.json()) as Env).toEqual(envA);
      expect(eng.calls).toBe(1);
      expect(await c.used()).toBe(1);

      // Another account's run is no run of this caller; a malformed id is refused: nothing runs.
      const other = await keyedClient(s.url);
      const theirs = await query(s.url, other.key, { query: "q" }, { "last-event-id": `${runId}:1` });
      expect(theirs.status).toBe(404);
      expect(((await theirs.json()) as Env).errors[0]!.code).toBe("run_not_found");
      const bad = await query(s.url, other.key, { query: "q" }, { "last-event-id": "not-an-id" });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as Env).errors[0]!.code).toBe("invalid_request");
      expect(eng.calls).toBe(1);
      expect(await other.c.used()).toBe(0);
    } finally {
      await s.stop(100);
    }
  });
});
