import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { at, call, type Member, member } from "../../collections/collection-calls.ts";
import { settled, startUploadServer, upload } from "../../collections/uploads/upload-calls.ts";
import { Client, type TestServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";
import { loginFrom, PASSWORD } from "../auth-calls.ts";

useLongTimeout();

// Over the socket: the client's address is the entry's, as TRUST_PROXY resolves it.
let srv: TestServer;
beforeAll(() => {
  srv = startUploadServer({ TRUST_PROXY: "loopback" });
});
afterAll(() => srv.stop(100));

type Row = {
  action: string;
  actor_id: string | null;
  actor: string | null;
  target: string | null;
  ip: string | null;
  detail: string | null;
  cut: number;
};
/** The trail's rows about one account (as actor or target), oldest first. */
const rowsOf = (id: string): Row[] =>
  srv.sql.query("SELECT * FROM audit_events WHERE actor_id = ? OR target_id = ? ORDER BY id").all(id, id) as Row[];
const actionsOf = (id: string) => rowsOf(id).map((r) => r.action);

/** A member whose requests all come from `ip` (X-Forwarded-For, believed from loopback). */
async function from(ip: string, tag = "a"): Promise<Member> {
  const c = new Client(srv.url);
  const send = c.req.bind(c);
  c.req = (method, path, body, headers = {}) => send(method, path, body, { "x-forwarded-for": ip, ...headers });
  const { email, account } = await c.signup(`${tag}${crypto.randomUUID().slice(0, 8)}@example.com`);
  return { c, email, id: account.id };
}

describe("the audit trail records each change once, in its transaction", () => {
  test("sign-up is signup only; a sign-in, a wrong password, a sign-out each once, with the client's address", async () => {
    const m = await from("203.0.113.7");
    expect(actionsOf(m.id)).toEqual(["signup"]);
    expect(rowsOf(m.id)[0]).toMatchObject({ actor: m.email, ip: "203.0.113.7" });

    const wrong = await loginFrom(srv.url, m.email, "not the password", "203.0.113.8");
    expect(wrong.status).toBe(401);
    expect(actionsOf(m.id)).toEqual(["signup", "signin_failed"]);
    expect(rowsOf(m.id)[1]).toMatchObject({ actor: null, target: m.email, ip: "203.0.113.8" });

    const ok = await loginFrom(srv.url, m.email, PASSWORD, "203.0.113.9");
    expect(ok.status).toBe(200);
    expect(actionsOf(m.id)).toEqual(["signup", "signin_failed", "signin"]);

    expect((await m.c.req("POST", "/api/v1/auth/logout", {})).status).toBe(204);
    expect(actionsOf(m.id)).toEqual(["signup", "signin_failed", "signin", "signout"]);
    // Signing out again (no session left) ends nothing: nothing recorded.
    await m.c.req("POST", "/api/v1/auth/logout", {});
    expect(actionsOf(m.id)).toHaveLength(4);
  });

  test("keys: created and revoked once; revoking again or someone else's key records nothing", async () => {
    const a = await from("198.51.100.1", "a");
    const b = await from("198.51.100.2", "b");
    const key = await a.c.createKey("laptop");
    expect((await call(a, "DELETE", `/api/console/keys/${key.id}`)).status).toBe(200);
    expect((await call(a, "DELETE", `/api/console/keys/${key.id}`)).status).toBe(200);
    const other = await b.c.createKey();
    expect((await call(a, "DELETE", `/api/console/keys/${other.id}`)).status).toBe(404);
    expect(actionsOf(a.id)).toEqual(["signup", "key_created", "key_revoked"]);
    expect(rowsOf(a.id)[1]).toMatchObject({ target: key.prefix, detail: "laptop", ip: "198.51.100.1" });
    expect(actionsOf(b.id)).toEqual(["signup", "key_created"]);
  });

  test("collections and documents: each change once, none for a refused one", async () => {
    const a = await member(srv.url, "c");
    expect((await call(a, "POST", "/api/console/collections", { name: "notes" })).status).toBe(201);
    expect((await call(a, "POST", "/api/console/collections", { name: "notes" })).status).toBe(409);
    expect((await call(a, "PATCH", at("notes"), { name: "papers" })).status).toBe(200);
    expect((await call(a, "PATCH", at("papers"), { visibility: "shared" })).status).toBe(200);
    expect((await call(a, "PATCH", at("papers"), { visibility: "shared" })).status).toBe(200);
    expect((await call(a, "PATCH", at("papers"), { visibility: "private" })).status).toBe(200);
    expect((await upload(a, "papers", [{ name: "tides.md", data: "# Tides\n\nThe moon raises tides." }])).status).toBe(
      202,
    );
    await settled(a, "papers");
    expect((await call(a, "DELETE", at("papers", "tides.md"))).status).toBe(200);
    expect((await call(a, "DELETE", at("papers", "tides.md"))).status).toBe(404);
    expect((await call(a, "DELETE", at("papers"))).status).toBe(200);
    expect((await call(a, "DELETE", at("papers"))).status).toBe(404);
    expect(actionsOf(a.id)).toEqual([
      "signup",
      "collection_created",
      "collection_renamed",
      "collection_shared",
      "collection_unshared",
      "documents_uploaded",
      "document_deleted",
      "collection_deleted",
    ]);
    expect(rowsOf(a.id).find((r) => r.action === "collection_renamed")).toMatchObject({
      target: "papers",
      detail: "from notes",
    });
  });

  test("the Console shows the caller's events only, newest first, failed sign-ins on its email included", async () => {
    const a = await from("192.0.2.10", "a");
    const b = await from("192.0.2.11", "b");
    await loginFrom(srv.url, a.email, "wrong password!", "192.0.2.66");
    await a.c.createKey();
    await b.c.createKey();
    const r = await call(a, "GET", "/api/console/audit");
    expect(r.status).toBe(200);
    expect(r.body.next).toBeNull();
    expect(r.body.events.map((e: { action: string }) => e.action)).toEqual(["key_created", "signin_failed", "signup"]);
    expect(Object.keys(r.body.events[0]).sort()).toEqual(["action", "actor", "at", "detail", "ip", "target"]);
    expect(r.body.events[1]).toMatchObject({ actor: null, target: a.email, ip: "192.0.2.66" });
    expect(JSON.stringify(r.body)).not.toContain(b.email);
    // Without a session: the Console's 401, as its other routes.
    expect((await fetch(`${srv.url}/api/console/audit`)).status).toBe(401);
    expect((await call(a, "GET", "/api/console/audit?before=x")).status).toBe(400);
  });

  test("?before= pages through the caller's events, newest first, each once", async () => {
    const a = await from("192.0.2.20", "p");
    for (let i = 0; i < 52; i++) await a.c.createKey(`k${i}`);
    for (const k of (await call(a, "GET", "/api/console/keys")).body.keys.slice(0, 50))
      await call(a, "DELETE", `/api/console/keys/${k.id}`);
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const r = await call(a, "GET", `/api/console/audit${next ? `?before=${next}` : ""}`);
      expect(r.status).toBe(200);
      expect(r.body.events.length).toBeLessThanOrEqual(100);
      seen.push(...r.body.events.map((e: { action: string; detail: string | null }) => `${e.action}:${e.detail}`));
      next = r.body.next;
    } while (next);
    expect(seen).toHaveLength(1 + 52 + 50);
    expect(seen.at(-1)).toBe("signup:null");
    expect(new Set(seen).size).toBe(seen.length - 49); // the 50 revocations share their detail (none)
  });

  test("no row holds a password, a key or a session token", async () => {
    const a = await from("192.0.2.30", "s");
    await loginFrom(srv.url, a.email, "a guessed password", "192.0.2.31");
    const key = await a.c.createKey("ci");
    const token = a.c.cookie!.split("=")[1]!;
    const dump = JSON.stringify(srv.sql.query("SELECT * FROM audit_events").all());
    for (const secret of [PASSWORD, "a guessed password", key.key, token]) expect(dump).not.toContain(secret);
    // Each entry is also a JSON log line, as secret-free.
    const lines = srv.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === "audit" && l.actor_id === a.id);
    expect(lines.map((l) => l.action)).toEqual(["signup", "key_created"]);
    expect(lines[1]).toMatchObject({ target: key.prefix, ip: "192.0.2.30", detail: "ci" });
    for (const secret of [PASSWORD, key.key, token]) expect(JSON.stringify(srv.logs)).not.toContain(secret);
  });
});

describe("failed sign-ins cannot flood the trail", () => {
  test("one address: at most 20 rows an hour, the rest counted on the last", async () => {
    // Five addresses typed five times each (the per-address throttle allows five), all from one client.
    const emails = await Promise.all([0, 1, 2, 3, 4].map(async (i) => (await from("192.0.2.40", `f${i}`)).email));
    for (const email of emails)
      for (let i = 0; i < 5; i++)
        expect((await loginFrom(srv.url, email, "wrong guess!!", "192.0.2.99")).status).toBe(401);
    const rows = srv.sql
      .query("SELECT cut FROM audit_events WHERE action = 'signin_failed' AND ip = '192.0.2.99'")
      .all() as { cut: number }[];
    expect(rows).toHaveLength(20);
    expect(rows.reduce((n, r) => n + r.cut, 0)).toBe(5);
  });
});
