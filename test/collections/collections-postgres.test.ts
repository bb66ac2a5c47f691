import { afterAll, describe, expect, test } from "bun:test";
import type { RunningServer } from "../../src/server/server.ts";
import { openPostgresStore } from "../../src/store/postgres/open.ts";
import { createLogger } from "../../src/util/logger.ts";
import { freshDatabase, postgresTests } from "../helpers/postgres.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { at, call, codeOf, elsewhere, fill, HANDBOOK, HR_NOTES, member } from "./collection-calls.ts";
import { expectPrivateToOthers, expectSharedReadOnly } from "./privacy-checks.ts";

useLongTimeout();

// The Console's privacy on PostgreSQL, with two instances of one database: A works on one,
// B on the other (README "Collections for a team").

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop(100);
});

async function start(url: string): Promise<RunningServer> {
  const s = startTestServer({
    env: { DATABASE_URL: url, LOG_LEVEL: "warn", SIGNUP_PER_HOUR: "50" },
    engine: scriptedEngine(),
    store: await openPostgresStore(url, { max: 4 }),
    logger: createLogger("silent"),
  });
  servers.push(s);
  return s;
}

describe.skipIf(!postgresTests)("the Console's collections on PostgreSQL, two instances", () => {
  test("B on the other instance never sees A's private collection; a shared one reaches both", async () => {
    const url = await freshDatabase();
    const one = await start(url);
    const two = await start(url);
    const a = await member(one.url, "a");
    const b = await member(two.url, "b");
    expect((await call(a, "POST", "/api/console/collections", { name: "hr" })).status).toBe(201);
    const dup = await call(elsewhere(a, two.url), "POST", "/api/console/collections", { name: "hr" });
    expect([dup.status, codeOf(dup)]).toEqual([409, "collection_exists"]);
    const bad = await call(a, "POST", "/api/console/collections", { name: "../x" });
    expect([bad.status, codeOf(bad)]).toEqual([400, "invalid_collection_name"]);
    await call(a, "POST", "/api/console/collections", { name: "handbook", visibility: "shared" });
    await fill(one.deps.store, a.id, "hr", HR_NOTES);
    await fill(one.deps.store, a.id, "handbook", HANDBOOK);

    await expectPrivateToOthers(a, b, "hr", "reviews/q3 salaries.md", HR_NOTES);
    await expectSharedReadOnly(a, b, "handbook", "welcome.md");
    // A's changes on one instance are what B reads on the other.
    expect((await call(a, "PATCH", at("hr"), { visibility: "shared" })).status).toBe(200);
    const page = await call(b, "GET", at("hr", "reviews/q3 salaries.md"));
    expect([page.status, page.body.passages.length]).toEqual([200, 1]);
    expect((await call(a, "PATCH", at("hr"), { visibility: "private" })).status).toBe(200);
    await expectPrivateToOthers(a, b, "hr", "reviews/q3 salaries.md", HR_NOTES);
    const removed = await call(elsewhere(a, two.url), "DELETE", at("hr", "reviews/q3 salaries.md"));
    expect(removed.status).toBe(200);
    const gone = await call(a, "DELETE", at("hr"));
    expect(gone.body).toEqual({ name: "hr", documents: 1 });
  });
});
