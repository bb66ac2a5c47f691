import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client, keyedClient, startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

let srv: TestServer;
beforeAll(() => {
  srv = startTestServer({ engine: scriptedEngine() });
});
afterAll(() => srv.stop(100));

/** GET /api/v1/auth/session: how the web app asks who is signed in without a 401 in the console. */
describe("the session probe", () => {
  const probe = async (c: Client, headers: Record<string, string> = {}) => {
    const res = await c.req("GET", "/api/v1/auth/session", undefined, headers);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    return (await res.json()) as { account: unknown };
  };

  test("signed out, with an unknown or broken cookie, or with only an API key: 200 and account null", async () => {
    expect(await probe(new Client(srv.url))).toEqual({ account: null });
    const forged = new Client(srv.url);
    forged.cookie = "auth_token=not-a-session";
    expect(await probe(forged)).toEqual({ account: null });
    forged.cookie = "auth_token=%E0%A4%A";
    expect(await probe(forged)).toEqual({ account: null });
    const { key } = await keyedClient(srv.url);
    expect(await probe(new Client(srv.url), { authorization: `Bearer ${key}` })).toEqual({ account: null });
  });

  test("signed in: the account, as /api/v1/me gives it; after sign-out null again", async () => {
    const c = new Client(srv.url);
    await c.signup("probe@example.com");
    const me = await (await c.req("GET", "/api/v1/me")).json();
    expect(await probe(c)).toEqual({ account: me });
    expect(me).toEqual({
      id: expect.any(String),
      email: "probe@example.com",
      plan: "free",
      created_at: expect.any(String),
    });
    const saved = c.cookie!;
    expect((await c.req("POST", "/api/v1/auth/logout")).status).toBe(204);
    const old = new Client(srv.url);
    old.cookie = saved;
    expect(await probe(old)).toEqual({ account: null });
  });

  test("the OpenAPI document describes it: public, 200 with account Me or null", async () => {
    const doc = (await (await fetch(`${srv.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, any> }>>;
    };
    const op = doc.paths["/api/v1/auth/session"]!.get!;
    expect(op.operationId).toBe("authSession");
    expect(Object.keys(op.responses).filter((s) => s < "500")).toEqual(["200"]);
    expect(op.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/SessionStatus",
    });
    const status = (doc as unknown as { components: { schemas: Record<string, any> } }).components.schemas
      .SessionStatus;
    expect(status.required).toEqual(["account"]);
    expect(status.properties.account.anyOf).toEqual([{ $ref: "#/components/schemas/Me" }, { type: "null" }]);
  });
});
