import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";
import { followedOnTheOtherInstance } from "./follow-elsewhere.ts";

useLongTimeout();

describe("two servers on one SQLite file", () => {
  test("a retry or a resume that reaches the other server follows the run there: same answer, one run", async () => {
    const path = `/tmp/rq-shared-${crypto.randomUUID()}.db`;
    const servers: TestServer[] = [];
    try {
      await followedOnTheOtherInstance(async (engine) => {
        servers.push(startTestServer({ engine, env: { DATABASE_PATH: path } }));
        return servers.at(-1)!;
      });
      expect(servers[0]!.sql.query("SELECT COUNT(*) AS n FROM runs").get()).toEqual({ n: 1 });
    } finally {
      for (const srv of servers) await srv.stop(100);
      for (const f of ["", "-wal", "-shm"]) rmSync(path + f, { force: true });
    }
  });
});
