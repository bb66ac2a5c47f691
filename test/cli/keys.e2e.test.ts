import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client, startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

// The CLI and a running server on one database file, as an operator has them.
const env = { DATABASE_PATH: join(mkdtempSync(join(tmpdir(), "rq-keys-")), "rq.db") };
let srv: TestServer;
beforeAll(() => {
  srv = startTestServer({ engine: scriptedEngine(), env });
});
afterAll(() => srv.stop());

const query = (key: string) =>
  fetch(`${srv.url}/api/query`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ query: "What is base editing?" }),
  });

describe("key list and key revoke", () => {
  test("list shows each key without the key; --json is the Console's GET payload", async () => {
    const c = new Client(srv.url);
    const { email } = await c.signup();
    const laptop = await c.createKey("laptop");
    const made = await cli(["key", "create", email, "--name", "ci"], env);
    expect(made.code).toBe(0);
    const ciKey = made.out.trim();

    const list = await cli(["key", "list", email], env);
    expect(list.code).toBe(0);
    const [header, ...rows] = list.out.trimEnd().split("\n");
    expect(header!.split(/\s{2,}/)).toEqual(["ID", "NAME", "PREFIX", "STATUS", "CREATED", "LAST USED"]);
    expect(rows).toHaveLength(2);
    // Newest first: the CLI's key, then the Console's.
    expect(rows[0]).toMatch(
      new RegExp(`^\\S+\\s+ci\\s+${ciKey.slice(0, 12)}\\s+active\\s+\\d{4}-\\d\\d-\\d\\dT[\\d:]{8}Z\\s+never$`),
    );
    expect(rows[1]).toContain(laptop.id);
    expect(rows[1]).toContain(laptop.prefix);
    for (const secret of [ciKey, laptop.key]) expect(list.out).not.toContain(secret);

    const json = await cli(["key", "list", email, "--json"], env);
    expect(JSON.parse(json.out)).toEqual(await (await c.req("GET", "/api/console/keys")).json());
    expect(json.out).not.toContain(ciKey);
  });

  test("revoke takes effect on the next call, is idempotent like the Console's DELETE, and names an unknown id", async () => {
    const c = new Client(srv.url);
    const { email } = await c.signup();
    const k = await c.createKey("doomed");
    const kept = await c.createKey("kept");
    expect((await query(k.key)).status).toBe(200);

    const r = await cli(["key", "revoke", k.id], env);
    expect(r.code).toBe(0);
    expect(r.out).toStartWith(`revoked ${k.id}`);
    expect((await query(k.key)).status).toBe(403);
    expect((await query(kept.key)).status).toBe(200);

    const again = await cli(["key", "revoke", k.id, "--json"], env);
    expect(again.code).toBe(0);
    const viaConsole = await (await c.req("DELETE", `/api/console/keys/${k.id}`)).json();
    expect(JSON.parse(again.out)).toEqual(viaConsole);
    expect(viaConsole).toMatchObject({ id: k.id, status: "revoked" });

    const listed = JSON.parse((await cli(["key", "list", email, "--json"], env)).out).keys;
    expect(listed.map((x: { status: string }) => x.status)).toEqual(["active", "revoked"]);
    expect(listed[1].revoked_at).toBe(viaConsole.revoked_at);

    const unknown = await cli(["key", "revoke", "no-such-key"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("no key with id no-such-key");
  });

  test("an unknown email fails with exit 1; an account without keys lists none", async () => {
    const missing = await cli(["key", "list", "nobody@example.com"], env);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("no account with email nobody@example.com");
    const { email } = await new Client(srv.url).signup();
    const none = await cli(["key", "list", email], env);
    expect(none.code).toBe(0);
    expect(none.out).toBe("");
    expect(none.err).toContain("has no keys");
    expect(JSON.parse((await cli(["key", "list", email, "--json"], env)).out)).toEqual({ keys: [], next: null });
  });
});
