import { afterAll, describe, expect, test } from "bun:test";
import { Client, query, startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { backends } from "../store/backends.ts";

useLongTimeout();

const DAY = 86_400_000;

/**
 * README "Retention" through the server: RUN_RETENTION_DAYS=30 and the sweep's clock moved on.
 * A run younger than the limit is untouched; older ones are gone from the Console, while its
 * usage and the allowance read the same.
 */
for (const backend of backends) {
  describe(`runs past RUN_RETENTION_DAYS on ${backend.name}`, () => {
    let srv: TestServer | undefined;
    afterAll(() => srv?.stop(100));

    test("are swept; younger ones stay; the Console's usage and the allowance are unchanged", async () => {
      let clock = new Date();
      srv = startTestServer({
        store: await backend.open(),
        env: { RUN_RETENTION_DAYS: "30", DEFAULT_PLAN: "pro", PLAN_RUNS_PRO: "100" },
        retention: { firstMs: 3_600_000, now: () => clock },
      });
      const owner = new Client(srv.url);
      await owner.signup();
      const { key } = await owner.createKey();
      const ids: string[] = [];
      for (const q of ["What is CRISPR?", "What limits solid-state batteries?", "Why do tides happen?"]) {
        const res = await query(srv.url, key, { query: q });
        expect(res.status).toBe(200);
        ids.push(((await res.json()) as { request_id: string }).request_id);
      }
      const usage = async () => (await owner.req("GET", "/api/console/usage")).json() as Promise<Record<string, any>>;
      const timeline = async (id: string) => (await owner.req("GET", `/api/console/runs/${id}`)).status;
      const before = await usage();
      expect(before.allowance.used).toBe(3);
      expect(before.totals.calls).toBe(3);

      // 29 days on: younger than the limit, nothing is touched.
      clock = new Date(Date.now() + 29 * DAY);
      expect(await srv.retention.sweep()).toEqual({ runs: 0, audit: 0 });
      for (const id of ids) expect(await timeline(id)).toBe(200);
      expect(srv.logs.some((l) => l.includes('"msg":"retention_sweep"'))).toBe(false);

      clock = new Date(Date.now() + 31 * DAY);
      expect(await srv.retention.sweep()).toEqual({ runs: 3, audit: 0 });
      for (const id of ids) expect(await timeline(id)).toBe(404);
      const after = await usage();
      expect({ ...after, recent: [] }).toEqual({ ...before, recent: [] });
      expect(after.recent).toEqual([]);
      expect(await owner.used()).toBe(3);
      const line = JSON.parse(srv.logs.find((l) => l.includes('"msg":"retention_sweep"'))!);
      expect(line).toMatchObject({ level: "info", data: "runs", deleted: 3, days: 30 });
    });
  });

  describe(`the audit trail past AUDIT_RETENTION_DAYS on ${backend.name}`, () => {
    let srv: TestServer | undefined;
    afterAll(() => srv?.stop(100));

    test("is swept by the same sweep; younger events stay", async () => {
      let clock = new Date();
      srv = startTestServer({
        store: await backend.open(),
        env: { AUDIT_RETENTION_DAYS: "60" },
        retention: { firstMs: 3_600_000, now: () => clock },
      });
      const owner = new Client(srv.url);
      await owner.signup();
      await owner.createKey();
      const actions = async () =>
        ((await (await owner.req("GET", "/api/console/audit")).json()) as { events: { action: string }[] }).events.map(
          (e) => e.action,
        );
      expect(await actions()).toEqual(["key_created", "signup"]);
      clock = new Date(Date.now() + 59 * DAY);
      expect(await srv.retention.sweep()).toEqual({ runs: 0, audit: 0 });
      expect(await actions()).toEqual(["key_created", "signup"]);
      clock = new Date(Date.now() + 61 * DAY);
      expect(await srv.retention.sweep()).toEqual({ runs: 0, audit: 2 });
      expect(await actions()).toEqual([]);
      const line = JSON.parse(srv.logs.find((l) => l.includes('"data":"audit"'))!);
      expect(line).toMatchObject({ msg: "retention_sweep", deleted: 2, days: 60 });
    });
  });
}
