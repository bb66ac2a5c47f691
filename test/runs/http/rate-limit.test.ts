import { afterAll, describe, expect, test } from "bun:test";
import { openPostgresStore } from "../../../src/store/postgres/open.ts";
import { freshDatabase, postgresTests } from "../../helpers/postgres.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { keyedClient, query, startTestServer, type TestServer, type TestServerOptions } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop(100);
});
const serve = (o: TestServerOptions): TestServer => {
  const s = startTestServer(o);
  servers.push(s);
  return s;
};

/** The two fields of an answer, parsed as the structured-field lists they are. */
function fields(res: Response): { q: number; w: number; r: number; t: number } {
  const policy = res.headers.get("ratelimit-policy");
  const limit = res.headers.get("ratelimit");
  expect(policy).toMatch(/^"monthly";q=\d+;w=\d+$/);
  expect(limit).toMatch(/^"monthly";r=\d+;t=\d+$/);
  const num = (h: string, p: string) => Number(new RegExp(`;${p}=(\\d+)`).exec(h)![1]);
  return { q: num(policy!, "q"), w: num(policy!, "w"), r: num(limit!, "r"), t: num(limit!, "t") };
}

const JSON_PATH = "/api/query";
const STREAM = "/api/query/stream";
/** A call that is refused before the allowance (no body): it reports the allowance, charged nothing. */
const look = (s: TestServer, key: string) => query(s.url, key, { query: "" });
const run = async (s: TestServer, key: string, path: string, extra: Record<string, string> = {}) => {
  const res = await query(s.url, key, { query: "What is X?" }, extra, path);
  await res.text();
  return res;
};

describe("RateLimit fields on the query endpoints", () => {
  test("at a known instant: q is the plan's runs, w the month's seconds, t the seconds to the UTC month's end", async () => {
    // 10 Feb 2026 12:00 UTC: February has 28 days; 18.5 days to 1 March.
    const at = new Date("2026-02-10T12:00:00Z");
    const s = serve({ env: { PLAN_RUNS_FREE: "2" }, allowanceClock: () => at });
    const { key } = await keyedClient(s.url);
    const before = await look(s, key);
    expect(before.status).toBe(400);
    expect(fields(before)).toEqual({ q: 2, w: 28 * 86_400, r: 2, t: 18.5 * 86_400 });
    expect(fields(await run(s, key, JSON_PATH)).r).toBe(1);
    expect(fields(await run(s, key, STREAM)).r).toBe(0);
    const refused = await run(s, key, JSON_PATH);
    expect(refused.status).toBe(429);
    expect(fields(refused)).toEqual({ q: 2, w: 28 * 86_400, r: 0, t: 18.5 * 86_400 });
    expect(refused.headers.get("retry-after")).toBe(String(18.5 * 86_400));
  });

  test("they agree with the Console's allowance before and after runs, on replays and on a 429", async () => {
    const s = serve({ env: { PLAN_RUNS_FREE: "3" }, engine: scriptedEngine() });
    const { c, key } = await keyedClient(s.url);
    const consoleSays = async () => {
      const u = (await (await c.req("GET", "/api/console/usage")).json()) as {
        allowance: { limit: number; remaining: number };
        period: { end: string };
      };
      return u;
    };
    const agree = async (res: Response) => {
      const f = fields(res);
      const u = await consoleSays();
      expect(f.q).toBe(u.allowance.limit);
      expect(f.r).toBe(u.allowance.remaining);
      // The reset is the Console's period end (within the call's own few seconds).
      const end = Date.parse(u.period.end);
      expect(Math.abs(Date.now() + f.t * 1000 - end)).toBeLessThan(60_000);
      return f.r;
    };
    expect(await agree(await look(s, key))).toBe(3);
    expect(await agree(await run(s, key, JSON_PATH, { "idempotency-key": "k1" }))).toBe(2);
    // A replay of the same key is not charged again: it reports the allowance as it stands.
    const replay = await run(s, key, JSON_PATH, { "idempotency-key": "k1" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await agree(replay)).toBe(2);
    const streamed = await run(s, key, STREAM);
    expect(await agree(streamed)).toBe(1);
    // A Last-Event-ID resume neither: same standing.
    const resumed = await run(s, key, STREAM, { "last-event-id": `${streamed.headers.get("x-request-id")}:1` });
    expect(await agree(resumed)).toBe(1);
    expect(await agree(await run(s, key, STREAM))).toBe(0);
    const refused = await run(s, key, STREAM);
    expect(refused.status).toBe(429);
    expect(await agree(refused)).toBe(0);
    expect(fields(refused).t).toBe(Number(refused.headers.get("retry-after")));
  });

  test("concurrent calls near the limit never report a negative or a stale-high r", async () => {
    const s = serve({ env: { PLAN_RUNS_FREE: "5" }, engine: scriptedEngine({ delayMs: 20 }) });
    const { key } = await keyedClient(s.url);
    const all = await Promise.all(Array.from({ length: 16 }, (_, i) => run(s, key, i % 2 ? STREAM : JSON_PATH)));
    const ok = all.filter((r) => r.status === 200).map((r) => fields(r).r);
    expect(ok).toHaveLength(5);
    // The k-th acceptance counted k runs, so at most 5 - k are left when it answers.
    for (const [k, r] of ok.sort((a, b) => b - a).entries()) expect(r).toBeLessThanOrEqual(4 - k);
    for (const r of all.filter((x) => x.status === 429)) expect(fields(r).r).toBe(0);
  });

  test("a refused key names no account: no RateLimit fields", async () => {
    const s = serve({});
    for (const key of [null, "rq_live_nonsense"]) {
      const res = await query(s.url, key, { query: "What is X?" });
      expect(res.status).toBe(401);
      expect(res.headers.get("ratelimit")).toBeNull();
      expect(res.headers.get("ratelimit-policy")).toBeNull();
    }
  });

  test("a page of another origin may read them (CORS)", async () => {
    const s = serve({});
    const { key } = await keyedClient(s.url);
    const res = await query(s.url, key, { query: "" }, { origin: "https://elsewhere.example" });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = res.headers.get("access-control-expose-headers")!.split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(["RateLimit", "RateLimit-Policy"]));
    const pre = await fetch(`${s.url}/api/query/stream`, {
      method: "OPTIONS",
      headers: { origin: "https://elsewhere.example", "access-control-request-method": "POST" },
    });
    expect(pre.headers.get("access-control-expose-headers")).toContain("RateLimit-Policy");
  });
});

test("the OpenAPI document names both fields on both operations' answers, but not on the key refusals", async () => {
  const s = serve({});
  const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as {
    paths: Record<string, { post: { responses: Record<string, { headers?: Record<string, unknown> }> } }>;
    components: { headers: Record<string, unknown> };
  };
  expect(Object.keys(doc.components.headers)).toEqual(expect.arrayContaining(["RateLimit", "RateLimit-Policy"]));
  for (const path of [JSON_PATH, STREAM]) {
    const answers = doc.paths[path]!.post.responses;
    for (const status of ["200", "400", "429"])
      expect(Object.keys(answers[status]!.headers ?? {})).toEqual(
        expect.arrayContaining(["RateLimit", "RateLimit-Policy"]),
      );
    for (const status of ["401", "403"]) expect(answers[status]?.headers?.RateLimit).toBeUndefined();
  }
});

describe.skipIf(!postgresTests)("RateLimit fields on PostgreSQL", () => {
  test("the same standing, read in one round trip after acceptance", async () => {
    const url = await freshDatabase();
    const s = serve({
      env: { DATABASE_URL: url, PLAN_RUNS_FREE: "2" },
      store: await openPostgresStore(url, { max: 4 }),
    });
    const { key } = await keyedClient(s.url);
    expect(fields(await look(s, key)).r).toBe(2);
    const all = await Promise.all([run(s, key, JSON_PATH), run(s, key, STREAM), run(s, key, JSON_PATH)]);
    expect(all.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    const ok = all.filter((r) => r.status === 200).map((r) => fields(r).r);
    for (const [k, r] of ok.sort((a, b) => b - a).entries()) expect(r).toBeLessThanOrEqual(1 - k);
    expect(fields(all.find((r) => r.status === 429)!).r).toBe(0);
  });
});
