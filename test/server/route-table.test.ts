import { afterAll, describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { KEY_CORS } from "../../src/http/cors.ts";
import type { Declaration } from "../../src/http/route.ts";
import { routeMatcher } from "../../src/http/route-match.ts";
import { gateBody } from "../../src/server/body-gate.ts";
import { declaredRoutes } from "../../src/server/routes.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client, startTestServer } from "../helpers/server.ts";

// One declaration per route (src/http/route.ts) feeds the gate, Elysia and the document
// (test/contract/openapi-routes.test.ts checks the last two agree): here, the gate asks the
// declaration, not the path, and the session is read once per request.

const srv = startTestServer({ engine: scriptedEngine() });
afterAll(() => srv.stop(100));

const op = declaredRoutes()[0]!.operation;
const at = (body: Declaration["body"], auth: Declaration["auth"] = "none"): Declaration => ({
  method: "POST",
  path: "/anything",
  auth,
  body,
  operation: op,
});
const noSession = async () => null;

/** A body that fails whoever reads it. */
const unreadable = () =>
  new Request("http://x/anything", {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: new ReadableStream({
      pull() {
        throw new Error("the body was read");
      },
    }),
  });

describe("the gate asks the route's declaration", () => {
  test("a json route refuses a text/plain body; the same path declared own is handed on unread", async () => {
    const plain = new Request("http://x/anything", {
      method: "POST",
      body: "hi",
      headers: { "content-type": "text/plain" },
    });
    expect(gateBody(plain, at("json"), noSession)).rejects.toMatchObject({ code: "invalid_request" });
    const own = unreadable();
    expect(await gateBody(own, at("own"), noSession)).toBe(own);
    expect(own.bodyUsed).toBe(false);
  });

  test("a session route without a session is refused before its body is read; an optional one goes on", async () => {
    expect(gateBody(unreadable(), at("own", "session"), noSession)).rejects.toMatchObject({ code: "unauthorized" });
    const r = unreadable();
    expect(await gateBody(r, at("own", "optional-session"), noSession)).toBe(r);
  });

  test("every read declares no body, every write json or its own; a key route reads its own (it is native)", () => {
    for (const r of declaredRoutes()) {
      expect({ route: `${r.method} ${r.path}`, body: r.body === "none" }).toEqual({
        route: `${r.method} ${r.path}`,
        body: r.method === "GET",
      });
      if (r.auth === "key") expect(r.body).toBe("own");
    }
  });

  test("the matcher finds each declaration by method and a concrete path", () => {
    const m = routeMatcher(declaredRoutes());
    expect(m.match("POST", "/api/console/collections/notes/documents")?.body).toBe("own");
    expect(m.match("GET", "/api/console/collections/notes/documents")?.body).toBe("none");
    expect(m.match("HEAD", "/api/console/keys")?.method).toBe("GET");
    expect(m.match("PUT", "/api/console/keys")).toBeUndefined();
    expect(m.match("POST", "/nowhere")).toBeUndefined();
  });
});

describe("the session is resolved once per request", () => {
  test("a Console write reads the session and its account once each", async () => {
    const c = new Client(srv.url);
    await c.signup();
    const sessions = srv.deps.store.sessions;
    const accounts = srv.deps.store.accounts;
    const bySession = sessions.accountIdByHash.bind(sessions);
    const byId = accounts.byId.bind(accounts);
    const reads = { session: 0, account: 0 };
    sessions.accountIdByHash = (...a) => {
      reads.session++;
      return bySession(...a);
    };
    accounts.byId = (...a) => {
      reads.account++;
      return byId(...a);
    };
    try {
      const res = await c.req("POST", "/api/console/collections", { name: "once" });
      expect(res.status).toBe(201);
    } finally {
      sessions.accountIdByHash = bySession;
      accounts.byId = byId;
    }
    expect(reads).toEqual({ session: 1, account: 1 });
  });

  test("no routes file resolves the session itself: the gate hands the account over", async () => {
    const offenders: string[] = [];
    for await (const f of new Glob("src/**/*.ts").scan(".")) {
      // Where the session is defined, and the one place that resolves it for every route.
      if (/auth\/(session-cookie|sessions)\.ts$|server\/app\.ts$/.test(f)) continue;
      if (/\b(requireAccount|sessionAccount|resolveSession)\(/.test(await Bun.file(f).text())) offenders.push(f);
    }
    expect(offenders).toEqual([]);
  });
});

describe("one pipeline for the key routes", () => {
  test("their preflight and wrong-method answers carry the one CORS table", async () => {
    const pre = await fetch(`${srv.url}/api/query/stream`, { method: "OPTIONS" });
    expect(pre.status).toBe(204);
    for (const [k, v] of Object.entries(KEY_CORS)) expect(pre.headers.get(k)).toBe(v);
    expect(pre.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    const wrong = await fetch(`${srv.url}/api/query`, { method: "GET" });
    expect(wrong.status).toBe(404);
    expect(wrong.headers.get("allow")).toBe("POST, OPTIONS");
    expect(wrong.headers.get("access-control-allow-origin")).toBe("*");
  });
});
