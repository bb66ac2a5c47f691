import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type OidcFixture, startOidcProvider } from "../../fixtures/oidc-provider.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { Client, startTestServer, type TestServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";
import { callbackOf, freshBase, oidcEnv, signIn } from "../oidc/idp-browser.ts";

useLongTimeout();

// The identity provider's sign-ins in the audit trail, through the real flow.
const BASE = freshBase();
let idp: OidcFixture, srv: TestServer;
beforeAll(async () => {
  idp = await startOidcProvider([callbackOf(BASE)]);
  srv = startTestServer({ engine: scriptedEngine(), env: oidcEnv(idp, BASE, { SIGNUP_PER_HOUR: "100" }) });
});
afterAll(async () => {
  await srv.stop(100);
  idp.stop();
});

const actionsOf = (email: string) =>
  (
    srv.sql
      .query(
        "SELECT action FROM audit_events WHERE actor_id = (SELECT id FROM accounts WHERE email = ?) OR actor = ? ORDER BY id",
      )
      .all(email, email) as { action: string }[]
  ).map((r) => r.action);

describe("identity-provider sign-ins in the audit trail", () => {
  test("a first sign-in is signup only, the next a signin; a takeover is account_taken_over, then its signin", async () => {
    idp.users.set("dana", { email: "dana@corp.test", email_verified: true });
    expect((await signIn(BASE, "dana")).res.headers.get("location")).toBe("/");
    expect(actionsOf("dana@corp.test")).toEqual(["signup"]);
    await signIn(BASE, "dana");
    expect(actionsOf("dana@corp.test")).toEqual(["signup", "signin"]);

    await new Client(BASE).signup("erin@corp.test", "squatter password");
    idp.users.set("erin", { email: "erin@corp.test", email_verified: true });
    expect((await signIn(BASE, "erin")).res.headers.get("location")).toBe("/");
    expect(actionsOf("erin@corp.test")).toEqual(["signup", "account_taken_over", "signin"]);
    const taken = srv.sql.query("SELECT detail FROM audit_events WHERE action = 'account_taken_over'").get() as {
      detail: string;
    };
    expect(taken.detail).toBe(idp.issuer);
  });
});
