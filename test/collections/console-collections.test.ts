import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { conforms } from "../helpers/documented-answer.ts";
import { type InProcessServer, startInProcess } from "../helpers/in-process.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { at, call, codeOf, fill, HR_NOTES, type Member, member } from "./collection-calls.ts";

useLongTimeout();

let srv: InProcessServer;
let a: Member;
beforeAll(async () => {
  srv = startInProcess({ engine: scriptedEngine(), env: { SIGNUP_PER_HOUR: "50" } });
  a = await member(srv, "a");
});
afterAll(() => srv?.stop(100));

const LIST = "/api/console/collections";
const ONE = "/api/console/collections/{name}";
const names = async (m: Member) => (await call(m, "GET", LIST)).body.collections.map((c: any) => c.name);

describe("the Console's collections: create, list, rename, re-share, remove", () => {
  test("a new collection is private and empty; its name is the caller's once; every answer is the documented one", async () => {
    const made = await conforms(await a.c.req("POST", LIST, { name: "hr" }), LIST, "post", 201);
    expect(made.collection).toEqual({
      name: "hr",
      visibility: "private",
      owner: a.email,
      mine: true,
      documents: 0,
      bytes: 0,
      status: "ready",
      passages: 0,
      chars: 0,
      created_at: expect.any(String),
      updated_at: null,
    });
    const again = await conforms(await a.c.req("POST", LIST, { name: "hr", visibility: "shared" }), LIST, "post", 409);
    expect(again.errors[0].code).toBe("collection_exists");
    const shared = await call(a, "POST", LIST, { name: "handbook", visibility: "shared" });
    expect([shared.status, shared.body.collection.visibility]).toEqual([201, "shared"]);

    await fill(srv.deps.store, a.id, "hr", HR_NOTES);
    const list = await conforms(await a.c.req("GET", LIST), LIST, "get", 200);
    const hr = list.collections.find((c: any) => c.name === "hr");
    const bytes = Object.values(HR_NOTES).reduce((n, t) => n + Buffer.byteLength(t.replace(/^# .*\n\n/, "")), 0);
    expect(hr).toMatchObject({ documents: 2, mine: true, status: "ready", updated_at: expect.any(String) });
    // The kept text: passages of the Markdown, its heading as the title.
    expect(hr.bytes).toBeGreaterThan(bytes / 2);
    expect(hr.passages).toBeGreaterThanOrEqual(2);
  });

  test("PATCH renames or re-shares the caller's own; a taken name is 409; an empty change is 400", async () => {
    await call(a, "POST", LIST, { name: "drafts" });
    const renamed = await conforms(await a.c.req("PATCH", at("drafts"), { name: "notes" }), ONE, "patch", 200);
    expect(renamed.collection).toMatchObject({ name: "notes", visibility: "private", mine: true });
    expect(await names(a)).toContain("notes");
    expect(await names(a)).not.toContain("drafts");
    const clash = await conforms(await a.c.req("PATCH", at("notes"), { name: "hr" }), ONE, "patch", 409);
    expect(clash.errors[0].code).toBe("collection_exists");
    const both = await call(a, "PATCH", at("notes"), { name: "notes-2", visibility: "shared" });
    expect([both.status, both.body.collection.name, both.body.collection.visibility]).toEqual([
      200,
      "notes-2",
      "shared",
    ]);
    const same = await call(a, "PATCH", at("notes-2"), { name: "notes-2" });
    expect(same.status).toBe(200);
    for (const body of [{}, { visibility: "public" }, { name: 7 }]) {
      const r = await conforms(await a.c.req("PATCH", at("notes-2"), body), ONE, "patch", 400);
      expect([body, r.errors[0].code]).toEqual([body, "invalid_request"]);
    }
    const none = await conforms(
      await a.c.req("PATCH", at("nothing-here"), { visibility: "shared" }),
      ONE,
      "patch",
      404,
    );
    expect(none.errors[0].code).toBe("collection_not_found");
  });

  test("DELETE removes the caller's collection with its documents; again is 404", async () => {
    await call(a, "POST", LIST, { name: "scratch" });
    await fill(srv.deps.store, a.id, "scratch", HR_NOTES);
    const gone = await conforms(await a.c.req("DELETE", at("scratch")), ONE, "delete", 200);
    expect(gone).toEqual({ name: "scratch", documents: 2 });
    expect(await names(a)).not.toContain("scratch");
    expect(await srv.deps.store.corpus.findCollection(a.id, "scratch")).toBeNull();
    expect(srv.sql.query("SELECT count(*) AS n FROM corpus_documents WHERE doc_id = 'hiring.md'").get()).toEqual({
      n: 1, // hr's only
    });
    const again = await conforms(await a.c.req("DELETE", at("scratch")), ONE, "delete", 404);
    expect(again.errors[0].code).toBe("collection_not_found");
  });
});

describe("names", () => {
  const bad: [string, RegExp][] = [
    ["../x", /not paths/],
    ["a\u0007b", /control or invisible character/],
    ["a\u200Bb", /control or invisible character/],
    ["<b>x</b>", /markup/],
    ["", /empty/],
    ["x".repeat(65), /65 characters long \(at most 64\)/],
    ["two words", /white space/],
    ["-dash", /start with a letter or digit/],
    ["café", /contains "é"/],
  ];
  test("a name with a path, control characters, markup, or too long is 400 invalid_collection_name naming the problem", async () => {
    const before = await names(a);
    for (const [name, problem] of bad) {
      for (const [method, path, body] of [
        ["POST", LIST, { name }],
        ["PATCH", at("hr"), { name }],
      ] as const) {
        const r = await call(a, method, path, body);
        expect([name, method, r.status, codeOf(r)]).toEqual([name, method, 400, "invalid_collection_name"]);
        expect([name, r.body.errors[0].message]).toEqual([name, expect.stringMatching(problem)]);
        // The name is never written back: it could carry markup or control characters.
        if (name.length > 1) expect(r.text).not.toContain(JSON.stringify(name).slice(1, -1));
      }
    }
    expect(await names(a)).toEqual(before);
    const longest = await call(a, "POST", LIST, { name: "x".repeat(64) });
    expect(longest.status).toBe(201);
  });

  test("a body without a name, or not JSON, is 400 invalid_request", async () => {
    for (const body of [{}, { name: 1 }, { name: "ok", visibility: "everyone" }]) {
      const r = await call(a, "POST", LIST, body);
      expect([body, r.status, codeOf(r)]).toEqual([body, 400, "invalid_request"]);
    }
    const form = await call(a, "POST", LIST, "name=x", { "content-type": "application/x-www-form-urlencoded" });
    expect([form.status, codeOf(form)]).toEqual([400, "invalid_request"]);
  });
});

describe("refusals before anything else", () => {
  const routes: [string, string][] = [
    ["GET", LIST],
    ["POST", LIST],
    ["PATCH", at("hr")],
    ["DELETE", at("hr")],
    ["GET", `${at("hr")}/documents`],
    ["GET", at("hr", "hiring.md")],
    ["DELETE", at("hr", "hiring.md")],
  ];
  test("without a session every route is 401 unauthorized", async () => {
    const anon = new Client(srv);
    for (const [method, path] of routes) {
      const r = await call(anon, method, path, method === "POST" || method === "PATCH" ? { name: "x" } : undefined);
      expect([method, path, r.status, codeOf(r)]).toEqual([method, path, 401, "unauthorized"]);
    }
  });

  test("a cross-site PATCH, POST or DELETE is 403 CROSS_SITE_REQUEST and changes nothing", async () => {
    const before = (await call(a, "GET", LIST)).body;
    const refused: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { origin: "https://evil.example" },
      { origin: "null" },
    ];
    for (const headers of refused) {
      for (const [method, path, body] of [
        ["PATCH", at("hr"), { visibility: "shared" }],
        ["PATCH", at("hr"), { name: "taken-over" }],
        ["POST", LIST, { name: "planted" }],
        ["DELETE", at("hr")],
        ["DELETE", at("hr", "hiring.md")],
      ] as const) {
        const r = await call(a, method, path, body, headers);
        expect([method, headers, r.status, codeOf(r)]).toEqual([method, headers, 403, "CROSS_SITE_REQUEST"]);
      }
    }
    expect((await call(a, "GET", LIST)).body).toEqual(before);
    const sameSite = await call(a, "PATCH", at("hr"), { visibility: "private" }, { "sec-fetch-site": "same-origin" });
    expect(sameSite.status).toBe(200);
  });
});
