import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAccount } from "../../src/auth/accounts.ts";
import { callbackOf, freshBase, oidcEnv, signIn } from "../auth/oidc/idp-browser.ts";
import { type OidcFixture, startOidcProvider } from "../fixtures/oidc-provider.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client, query, startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

// docs/decisions/0093-confirming-addresses-by-the-operator.md: before turning OIDC on, the operator
// vouches for the addresses of accounts made by sign-up without mail, so their holders' first
// sign-in through the provider joins their accounts instead of revoking their password and keys.
// The CLI and the running server share one database file, as an operator has them.
const env = { DATABASE_PATH: join(mkdtempSync(join(tmpdir(), "rq-confirm-")), "rq.db") };
const BASE = freshBase();
let idp: OidcFixture, srv: TestServer;
beforeAll(async () => {
  idp = await startOidcProvider([callbackOf(BASE)]);
  srv = startTestServer({
    engine: scriptedEngine(),
    env: { ...env, ...oidcEnv(idp, BASE, { SIGNUP_PER_HOUR: "100" }) },
  });
});
afterAll(async () => {
  await srv.stop(100);
  idp.stop();
});

const login = (email: string, password: string) =>
  new Client(BASE).req("POST", "/api/v1/auth/login", { email, password });
const meWith = (cookie: string) => fetch(`${BASE}/api/v1/me`, { headers: { cookie } });
const statusOf = async (email: string) => {
  const listed = await cli(["account", "list", "--json"], env);
  expect(listed.code).toBe(0);
  const { accounts } = JSON.parse(listed.out) as { accounts: { email: string; email_status: string }[] };
  return accounts.find((a) => a.email === email)?.email_status;
};

describe("account confirm", () => {
  test("an address the operator confirmed is joined by a verified identity: password, sessions and keys stay", async () => {
    const dana = new Client(BASE);
    const { account } = await dana.signup("dana@corp.test", "dana's password");
    const { key } = await dana.createKey("laptop");
    expect(await statusOf("dana@corp.test")).toBe("unproven");

    const confirmed = await cli(["account", "confirm", "Dana@Corp.test"], env);
    expect([confirmed.code, JSON.parse(confirmed.out)]).toEqual([0, { confirmed: ["dana@corp.test"], unknown: [] }]);
    expect(await statusOf("dana@corp.test")).toBe("proven");
    const table = await cli(["account", "list"], env);
    expect(table.out.split("\n")[0]!.split(/\s{2,}/)).toEqual(["EMAIL", "PLAN", "ADDRESS", "CREATED"]);
    expect(table.out).toMatch(/dana@corp\.test\s+free\s+proven\s/);

    idp.users.set("dana", { email: "dana@corp.test", email_verified: true });
    const { b, res } = await signIn(BASE, "dana");
    expect(res.headers.get("location")).toBe("/");
    const me = (await (await meWith(`auth_token=${b.cookie(BASE, "auth_token")}`)).json()) as { id: string };
    expect(me.id).toBe(account.id);
    expect((await login("dana@corp.test", "dana's password")).status).toBe(200);
    expect((await meWith(dana.cookie!)).status).toBe(200);
    expect((await query(BASE, key, { query: "what is water?" })).status).toBe(200);
  });

  test("--all-unproven confirms every unproven address, not one waiting for its link; an unknown email is exit 1", async () => {
    await new Client(BASE).signup("erin@corp.test", "erin's password");
    await new Client(BASE).signup("frank@corp.test", "frank's password");
    await createAccount(srv.deps.store, "gina@corp.test", "gina's password", "free", undefined, "pending");

    const all = await cli(["account", "confirm", "--all-unproven"], env);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.out).confirmed).toEqual(expect.arrayContaining(["erin@corp.test", "frank@corp.test"]));
    expect(JSON.parse(all.out).confirmed).not.toContain("gina@corp.test");
    expect(await statusOf("gina@corp.test")).toBe("pending");
    expect(JSON.parse((await cli(["account", "confirm", "--all-unproven"], env)).out)).toEqual({
      confirmed: [],
      unknown: [],
    });

    const some = await cli(["account", "confirm", "gina@corp.test", "nobody@corp.test"], env);
    expect([some.code, JSON.parse(some.out)]).toEqual([
      1,
      { confirmed: ["gina@corp.test"], unknown: ["nobody@corp.test"] },
    ]);
    expect(some.err).toContain("no account with email nobody@corp.test");
  });

  test("neither or both of EMAIL... and --all-unproven is a usage error; nothing changes", async () => {
    for (const args of [[], ["x@corp.test", "--all-unproven"]]) {
      const r = await cli(["account", "confirm", ...args], env);
      expect(r.code).toBe(2);
      expect(r.err).toContain("usage: research-query account confirm (EMAIL... | --all-unproven)");
    }
  });
});
