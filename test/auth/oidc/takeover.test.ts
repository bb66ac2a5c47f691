import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createAccount } from "../../../src/auth/accounts.ts";
import { type OidcFixture, startOidcProvider } from "../../fixtures/oidc-provider.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { Client, query, startTestServer, type TestServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";
import { type Browser, callbackOf, errorOf, freshBase, oidcEnv, signIn } from "./idp-browser.ts";

useLongTimeout();

// docs/decisions/0091-pre-registration-takeover.md: an identity-provider sign-in never joins an
// account whose address nobody proved; it takes the address over and revokes what was there.
const BASE = freshBase();
let idp: OidcFixture, srv: TestServer;
beforeAll(async () => {
  idp = await startOidcProvider([callbackOf(BASE)]);
  srv = startTestServer({
    engine: scriptedEngine(),
    env: oidcEnv(idp, BASE, { SIGNUP_PER_HOUR: "100" }),
  });
});
afterAll(async () => {
  await srv.stop(100);
  idp.stop();
});

const sessionOf = (b: Browser) => `auth_token=${b.cookie(BASE, "auth_token")}`;
const meWith = (cookie: string) => fetch(`${BASE}/api/v1/me`, { headers: { cookie } });
const login = (email: string, password: string) =>
  new Client(BASE).req("POST", "/api/v1/auth/login", { email, password });
const ask = (key: string) => query(BASE, key, { query: "what is water?" });

describe("pre-registration takeover", () => {
  test("a password sign-up nobody confirmed is taken over by the verified identity: the squatter's password, sessions and keys stop", async () => {
    const squatter = new Client(BASE);
    const { account } = await squatter.signup("alice@corp.test", "squatter password");
    const { key } = await squatter.createKey("planted");
    expect((await ask(key)).status).toBe(200);

    idp.users.set("alice", { email: "alice@corp.test", email_verified: true });
    const { b, res } = await signIn(BASE, "alice");
    expect(res.headers.get("location")).toBe("/");
    const me = (await (await meWith(sessionOf(b))).json()) as { id: string; email: string };
    expect(me.email).toBe("alice@corp.test");

    // The squatter is out, every way in.
    expect((await login("alice@corp.test", "squatter password")).status).toBe(401);
    expect((await meWith(squatter.cookie!)).status).toBe(401);
    const refused = await ask(key);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("key_inactive");
    // Alice's history is the account's: the same id (README "Accounts: sign-up and sign-in").
    expect(me.id).toBe(account.id);
  });

  test("an account whose address is proven (made by the operator) is joined, its password kept", async () => {
    await createAccount(srv.deps.store, "bob@corp.test", "operator password", "free");
    const bob = new Client(BASE);
    expect(
      (await bob.req("POST", "/api/v1/auth/login", { email: "bob@corp.test", password: "operator password" })).status,
    ).toBe(200);
    idp.users.set("bob", { email: "bob@corp.test", email_verified: true });
    const { res } = await signIn(BASE, "bob");
    expect(res.headers.get("location")).toBe("/");
    expect((await meWith(bob.cookie!)).status).toBe(200);
    expect((await login("bob@corp.test", "operator password")).status).toBe(200);
  });

  test("an account made by an identity whose email was not verified is taken over by a verified one; the first identity is unlinked", async () => {
    idp.users.set("fake-carol", { email: "carol@corp.test", email_verified: false });
    const first = await signIn(BASE, "fake-carol");
    expect(first.res.headers.get("location")).toBe("/");
    idp.users.set("carol", { email: "carol@corp.test", email_verified: true });
    const real = await signIn(BASE, "carol");
    expect(real.res.headers.get("location")).toBe("/");
    expect((await meWith(sessionOf(first.b))).status).toBe(401);
    // The unverified identity no longer signs in to Carol's account.
    expect(errorOf((await signIn(BASE, "fake-carol")).res)).toBe("email_not_verified");
  });
});
