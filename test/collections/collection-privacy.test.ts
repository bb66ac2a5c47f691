import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type InProcessServer, startInProcess } from "../helpers/in-process.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { useLongTimeout } from "../setup.ts";
import { at, call, codeOf, fill, HANDBOOK, HR_NOTES, type Member, member } from "./collection-calls.ts";
import { expectPrivateToOthers, expectSharedReadOnly } from "./privacy-checks.ts";

useLongTimeout();

let srv: InProcessServer;
let a: Member;
let b: Member;
let c: Member;
beforeAll(async () => {
  srv = startInProcess({ engine: scriptedEngine(), env: { SIGNUP_PER_HOUR: "50" } });
  [a, b, c] = await Promise.all([member(srv, "a"), member(srv, "b"), member(srv, "c")]);
  await call(a, "POST", "/api/console/collections", { name: "hr" });
  await call(a, "POST", "/api/console/collections", { name: "handbook", visibility: "shared" });
  await fill(srv.deps.store, a.id, "hr", HR_NOTES);
  await fill(srv.deps.store, a.id, "handbook", HANDBOOK);
});
afterAll(() => srv?.stop(100));

const list = async (m: Member) => (await call(m, "GET", "/api/console/collections")).body.collections as any[];

describe("account B and account A's collections", () => {
  test("B never sees A's private collection: not listed, and every route answers as for a name nobody has", async () => {
    await expectPrivateToOthers(a, b, "hr", "reviews/q3 salaries.md", HR_NOTES);
  });

  test("a PATCH body's fields beyond name and visibility change nothing: no hand-over to another account", async () => {
    const r = await call(a, "PATCH", at("hr"), {
      visibility: "private",
      ownerId: b.id,
      owner_id: b.id,
      owner: b.email,
    });
    expect([r.status, r.body.collection.owner, r.body.collection.mine]).toEqual([200, a.email, true]);
    expect((await srv.deps.store.corpus.findCollection(a.id, "hr"))?.ownerId).toBe(a.id);
    expect(await srv.deps.store.corpus.findCollection(b.id, "hr")).toBeNull();
  });

  test("a shared collection reaches every account, read-only for all but its owner", async () => {
    await expectSharedReadOnly(a, b, "handbook", "welcome.md");
  });

  test("names are per owner: B's own collection of A's name comes first; ?owner= picks A's", async () => {
    expect((await call(b, "POST", "/api/console/collections", { name: "handbook" })).status).toBe(201);
    const own = await call(b, "GET", `${at("handbook")}/documents`);
    expect([own.status, own.body.documents]).toEqual([200, []]);
    const theirs = await call(b, "GET", `${at("handbook")}/documents?owner=${encodeURIComponent(a.email)}`);
    expect(theirs.body.documents.map((d: any) => d.doc_id)).toEqual(["welcome.md"]);
    const both = (await list(b)).filter((x) => x.name === "handbook").map((x) => [x.owner, x.mine]);
    expect(both).toEqual(
      expect.arrayContaining([
        [a.email, false],
        [b.email, true],
      ]),
    );
    expect(both).toHaveLength(2);
    const patched = await call(b, "PATCH", at("handbook"), { visibility: "shared" });
    expect([patched.status, patched.body.collection.owner]).toEqual([200, b.email]);
    const aStill = (await list(a)).find((x) => x.name === "handbook" && x.mine);
    expect(aStill).toMatchObject({ owner: a.email, documents: 1 });
  });

  test("several owners sharing one name: 409 collection_ambiguous for a third account until ?owner= picks", async () => {
    // A's and B's `handbook` are both shared now.
    const r = await call(c, "GET", `${at("handbook")}/documents`);
    expect([r.status, codeOf(r)]).toEqual([409, "collection_ambiguous"]);
    const picked = await call(c, "GET", `${at("handbook")}/documents?owner=${encodeURIComponent(a.email)}`);
    expect(picked.body.documents).toHaveLength(1);
    // C's own private `hr` beside A's: C reads its own; B (the last test) still sees neither.
    await call(c, "POST", "/api/console/collections", { name: "hr" });
    const own = await call(c, "GET", `${at("hr")}/documents`);
    expect([own.status, own.body.documents]).toEqual([200, []]);
  });

  test("a collection the operator shares with no owner is everyone's to read and no one's to change", async () => {
    await srv.deps.store.corpus.createCollection({ name: "default", ownerId: null, visibility: "shared" });
    await fill(srv.deps.store, null, "default", HANDBOOK);
    for (const m of [a, b]) {
      expect((await list(m)).find((x) => x.name === "default")).toMatchObject({
        owner: null,
        mine: false,
        documents: 1,
      });
      const page = await call(m, "GET", at("default", "welcome.md"));
      expect([page.status, page.body.owner]).toEqual([200, null]);
      for (const [method, path, body] of [
        ["PATCH", at("default"), { visibility: "private" }],
        ["DELETE", at("default")],
        ["DELETE", at("default", "welcome.md")],
      ] as const) {
        const w = await call(m, method, path, body);
        expect([method, w.status, codeOf(w)]).toEqual([method, 404, "collection_not_found"]);
      }
    }
  });

  test("?owner= (empty) names the operator's collection even where the caller has one of that name", async () => {
    await srv.deps.store.corpus.createCollection({ name: "manual", ownerId: null, visibility: "shared" });
    await fill(srv.deps.store, null, "manual", HANDBOOK);
    expect((await call(a, "POST", "/api/console/collections", { name: "manual" })).status).toBe(201);
    const mine = await call(a, "GET", `${at("manual")}/documents`);
    expect([mine.status, mine.body.documents]).toEqual([200, []]);
    const operators = await call(a, "GET", at("manual", "welcome.md", "?owner="));
    expect([operators.status, operators.body.owner]).toEqual([200, null]);
    // Read-only all the same: an empty owner names no collection of the caller's.
    const w = await call(a, "DELETE", `${at("manual")}?owner=`);
    expect([w.status, codeOf(w)]).toEqual([404, "collection_not_found"]);
  });

  test("A shares hr: B reads it; A makes it private again: B sees nothing of it any more", async () => {
    expect((await call(a, "PATCH", at("hr"), { visibility: "shared" })).status).toBe(200);
    expect((await list(b)).some((x) => x.name === "hr" && x.owner === a.email)).toBe(true);
    expect((await call(b, "GET", at("hr", "hiring.md", `?owner=${encodeURIComponent(a.email)}`))).status).toBe(200);
    expect((await call(a, "PATCH", at("hr"), { visibility: "private" })).status).toBe(200);
    await expectPrivateToOthers(a, b, "hr", "reviews/q3 salaries.md", HR_NOTES);
  });
});
