import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { cli, MAIN, useCliFixtures } from "../cli/run-cli.ts";
import { expectEnvelope } from "../helpers/expect-envelope.ts";
import { freshDatabase, postgresTests } from "../helpers/postgres.ts";
import { processLog } from "../helpers/process-log.ts";
import { Client, query } from "../helpers/server.ts";
import { closedPort } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

const fx = useCliFixtures();
const running: Subprocess[] = [];
afterAll(async () => {
  for (const p of running) p.kill("SIGTERM");
  await Promise.all(running.map((p) => p.exited));
});

/** `research-query serve` as an operator starts it, on PostgreSQL; its address once it listens. */
async function serve(env: Record<string, string>): Promise<string> {
  const p = Bun.spawn(["bun", MAIN, "serve"], {
    cwd: mkdtempSync(join(tmpdir(), "rq-pg-serve-")),
    env: {
      PATH: process.env.PATH!,
      PORT: "0",
      SEARXNG_URL: fx.search.urls.searxng,
      ACADEMIC_PROVIDERS: "none",
      FETCH_ALLOW_PRIVATE: "true",
      ...env,
    },
    stdout: "pipe",
    stderr: "inherit",
  });
  running.push(p);
  const out = await processLog(p.stdout).until('"msg":"listening"');
  const line = out.split("\n").find((l) => l.includes('"msg":"listening"'))!;
  const logged = JSON.parse(line) as { url: string; database: string };
  expect(logged.database).toStartWith("postgres://");
  return logged.url;
}

describe.skipIf(!postgresTests)("the service on PostgreSQL", () => {
  test("two instances on one database: sign up on one, call and read usage on either", async () => {
    const DATABASE_URL = await freshDatabase();
    const [one, two] = await Promise.all([serve({ DATABASE_URL }), serve({ DATABASE_URL })]);
    const owner = new Client(one);
    const { email, password } = await owner.signup();
    const { key } = await owner.createKey("pg");
    for (const base of [one, two]) {
      const res = await query(base, key, { query: "How do base editors work?" });
      expect(res.status).toBe(200);
      expectEnvelope(await res.json(), { status: "ok" });
    }
    // The session made on one instance is good on the other, and so is the count.
    const elsewhere = new Client(two);
    elsewhere.cookie = owner.cookie;
    expect(await elsewhere.used()).toBe(2);
    const again = new Client(two);
    expect((await again.req("POST", "/api/v1/auth/login", { email, password })).status).toBe(200);
    // The CLI works on the same database: a key made there is accepted by the servers.
    const made = await cli(["key", "create", email, "--name", "cli"], { DATABASE_URL });
    expect(made.code).toBe(0);
    const cliKey = made.out.match(/rq-[A-Za-z0-9_-]{32}/)![0];
    expect((await query(two, cliKey, { query: "What is prime editing?" })).status).toBe(200);
    // A key revoked through one instance is refused by the other on the next call.
    const keys = (await (await owner.req("GET", "/api/console/keys")).json()) as {
      keys: { id: string; prefix: string }[];
    };
    const pg = keys.keys.find((k) => key.startsWith(k.prefix))!;
    expect((await owner.req("DELETE", `/api/console/keys/${pg.id}`)).status).toBe(200);
    const refused = await query(two, key, { query: "How do base editors work?" });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("key_inactive");
  });

  test("a DATABASE_URL that is not postgres:// or cannot be reached stops the start, never showing the password", async () => {
    for (const url of [
      "mysql://rq:hunter2secret@127.0.0.1/rq",
      `postgres://rq:hunter2secret@127.0.0.1:${closedPort()}/rq`,
    ]) {
      const { err, code } = await cli(["serve"], { PORT: "0", DATABASE_URL: url });
      expect(code).toBe(1);
      expect(err).toContain("invalid DATABASE_URL=");
      expect(err).toContain("rq:***@127.0.0.1");
      expect(err).not.toContain("hunter2secret");
    }
  });
});
