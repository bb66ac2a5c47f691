import { expect } from "bun:test";
import { at, call, codeOf, type Member } from "./collection-calls.ts";

/**
 * The Console's privacy checks between two accounts, shared by the SQLite and PostgreSQL tests:
 * what `other` may learn of `owner`'s collections through every collection route.
 */

const LIST = "/api/console/collections";

/** Every route that names a collection, for the collection `name` (and its document `docId`). */
function routes(name: string, docId: string, query: string): [string, string, unknown?][] {
  return [
    ["GET", `${at(name)}/documents${query}`],
    ["GET", at(name, docId, query)],
    ["DELETE", at(name, docId, query)],
    ["PATCH", at(name, undefined, query), { visibility: "shared" }],
    ["PATCH", at(name, undefined, query), { name: "taken-over" }],
    ["DELETE", at(name, undefined, query)],
  ];
}

/** The owner's view of a collection: its summary and its documents. */
async function ownerView(owner: Member, name: string) {
  const summary = (await call(owner, "GET", LIST)).body.collections.find((c: any) => c.name === name && c.mine);
  const docs = (await call(owner, "GET", `${at(name)}/documents`)).body.documents;
  return { summary, docs };
}

/**
 * `other` never learns anything of `owner`'s private collection `name`: it is not in the list
 * (no name, count or title), and every route, with or without ?owner=, answers exactly as for
 * a name nobody has — the same status, code and words. Nothing of it changes.
 */
export async function expectPrivateToOthers(
  owner: Member,
  other: Member,
  name: string,
  docId: string,
  files: Record<string, string>,
): Promise<void> {
  const before = await ownerView(owner, name);
  expect(before.summary.visibility).toBe("private");
  const listed = (await call(other, "GET", LIST)).text;
  expect(JSON.parse(listed).collections.filter((c: any) => c.owner === owner.email && c.name === name)).toEqual([]);
  for (const d of before.docs) {
    expect(listed).not.toContain(d.title);
    expect(listed).not.toContain(JSON.stringify(d.doc_id));
  }
  const ghost = `zz${crypto.randomUUID().slice(0, 6)}`;
  for (const query of ["", `?owner=${encodeURIComponent(owner.email)}`]) {
    const mine = routes(name, docId, query);
    const nobody = routes(ghost, docId, query);
    for (const [i, [method, path, body]] of mine.entries()) {
      const seen = await call(other, method, path, body);
      const none = await call(other, nobody[i]![0], nobody[i]![1], nobody[i]![2]);
      expect([method, path, seen.status, codeOf(seen)]).toEqual([method, path, 404, "collection_not_found"]);
      expect([method, path, seen.text]).toEqual([method, path, none.text.replace(ghost, name)]);
      for (const text of Object.values(files)) expect(seen.text).not.toContain(text.slice(0, 20));
    }
  }
  expect(await ownerView(owner, name)).toEqual(before);
}

/**
 * `owner`'s shared collection `name` is listed for `other` (not theirs), its documents and a
 * document's page read as the owner reads them; every change by `other` is 404 and changes nothing.
 */
export async function expectSharedReadOnly(owner: Member, other: Member, name: string, docId: string) {
  const before = await ownerView(owner, name);
  const seen = (await call(other, "GET", LIST)).body.collections.find(
    (c: any) => c.name === name && c.owner === owner.email,
  );
  expect(seen).toEqual({ ...before.summary, mine: false });
  const q = `?owner=${encodeURIComponent(owner.email)}`;
  for (const query of ["", q]) {
    expect((await call(other, "GET", `${at(name)}/documents${query}`)).body.documents).toEqual(before.docs);
    const page = await call(other, "GET", at(name, docId, query));
    expect([page.status, page.body]).toEqual([200, (await call(owner, "GET", at(name, docId))).body]);
  }
  for (const [method, path, body] of routes(name, docId, q).filter(([m]) => m !== "GET")) {
    const w = await call(other, method, path, body);
    expect([method, path, w.status, codeOf(w)]).toEqual([method, path, 404, "collection_not_found"]);
  }
  expect(await ownerView(owner, name)).toEqual(before);
}
