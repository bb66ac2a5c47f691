import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type OidcFixture, startOidcProvider } from "../../fixtures/oidc-provider.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { Client, startTestServer, type TestServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";
import { type AuthAnswer, authPost, cookieNamed } from "../auth-calls.ts";
import { atIdp, Browser, callbackOf, freshBase, oidcEnv, start } from "./idp-browser.ts";

useLongTimeout();

// docs/decisions/0114-sessions-only-while-the-credential-holds.md: password sign-ins still inside
// their argon2 check when an identity-provider takeover commits (docs/decisions/0091-pre-registration-takeover.md)
// must not come out with a session of the account the victim now holds.
const BASE = freshBase();
const SQUATTER = "squatter's password";
const RUNS = 4;
/** Sign-ins in flight per run: two browsers that signed in before, four each (the throttle's free attempts). */
const DEVICES = 2;
const PER_DEVICE = 4;
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

const keysWith = (cookie: string) => fetch(`${BASE}/api/console/keys`, { headers: { cookie } });

describe("a takeover racing the sign-ins in flight", () => {
  test("no sign-in checked against the squatter's password keeps a session once the victim's SSO took the address over", async () => {
    let survivors = 0;
    let answeredAfterTakeover = 0;
    const sessionsLeft: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const email = `victim${run}@corp.test`;
      const first = await authPost(BASE, "signup", { email, password: SQUATTER });
      expect(first.status).toBe(201);
      const devices = [cookieNamed(first, "rq_device")!];
      while (devices.length < DEVICES)
        devices.push(cookieNamed(await authPost(BASE, "login", { email, password: SQUATTER }), "rq_device")!);

      // The victim at the provider, up to the callback that commits the takeover.
      idp.users.set(`victim${run}`, { email, email_verified: true });
      const b = new Browser();
      const callback = await atIdp(b, await start(b, BASE), BASE, `victim${run}`);

      let takenOver = false;
      const signIns = devices.flatMap((device) =>
        Array.from({ length: PER_DEVICE }, () =>
          authPost(BASE, "login", { email, password: SQUATTER }, { cookie: device }).then((a) => ({
            a,
            after: takenOver,
          })),
        ),
      );
      const taken = await b.go(callback);
      takenOver = true;
      expect(taken.headers.get("location")).toBe("/");
      const answers: { a: AuthAnswer; after: boolean }[] = await Promise.all(signIns);
      answeredAfterTakeover += answers.filter((x) => x.after).length;

      const victim = new Client(BASE);
      victim.cookie = `auth_token=${b.cookie(BASE, "auth_token")}`;
      const { prefix } = await victim.createKey("the victim's own");
      for (const { a } of answers) {
        const session = cookieNamed(a, "auth_token");
        if (!session) continue;
        const seen = await keysWith(session);
        if (seen.status === 200) {
          survivors++;
          expect(JSON.stringify(await seen.json())).toContain(prefix); // what a surviving session sees
        }
      }
      const account = srv.sql.query("SELECT id FROM accounts WHERE email = ?").get(email) as { id: string };
      sessionsLeft.push(
        (srv.sql.query("SELECT COUNT(*) AS n FROM sessions WHERE account_id = ?").get(account.id) as { n: number }).n,
      );
    }
    // The race was run: sign-ins were still in flight when the takeover answered.
    expect(answeredAfterTakeover).toBeGreaterThan(0);
    expect({ survivors, sessionsLeft }).toEqual({ survivors: 0, sessionsLeft: sessionsLeft.map(() => 1) });
  });
});
