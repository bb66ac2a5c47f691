import { Database, type Statement } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CorpusDocumentInput } from "../../src/store/types.ts";
import { type InProcessServer, startInProcess } from "../helpers/in-process.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { useLongTimeout } from "../setup.ts";
import { at, call, type Member, member } from "./collection-calls.ts";

useLongTimeout();

/**
 * What one call of a collection's routes reads, counted in the statements it runs: finding the
 * collection a name means must not read its documents or passages. Every route looked the
 * collection up with its counts (every document and passage of it), so a page of a 100,000-
 * document collection's list held the server's thread ~175 ms, whatever the page held.
 */

// Every statement the server's connection runs, by its SQL, while `recording` is on.
const ran: string[] = [];
let recording = false;
const sqlOf = new WeakMap<Statement, string>();
const EXECUTE = ["all", "get", "run", "values", "iterate"] as const;
for (const make of ["prepare", "query"] as const) {
  const original = Database.prototype[make];
  Database.prototype[make] = function (this: Database, sql: string, ...rest: unknown[]) {
    const stmt = (original as (...a: unknown[]) => Statement).call(this, sql, ...rest);
    if (!sqlOf.has(stmt)) {
      sqlOf.set(stmt, sql);
      for (const m of EXECUTE) {
        const run = (stmt as unknown as Record<string, (...a: unknown[]) => unknown>)[m]!.bind(stmt);
        (stmt as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
          if (recording) ran.push(sql);
          return run(...a);
        };
      }
    }
    return stmt;
  } as (typeof Database.prototype)[typeof make];
}

/** The statements one call runs. */
async function statementsOf(f: () => Promise<unknown>): Promise<string[]> {
  ran.length = 0;
  recording = true;
  try {
    await f();
  } finally {
    recording = false;
  }
  return [...new Set(ran)];
}

const BIG = ["corpus_documents", "corpus_passages"];

/**
 * The plan steps of a statement that read a collection's documents or passages other than by
 * named doc_ids (a page's, or a range from ?from= under its LIMIT) or one document's passages:
 * a count or sum over the whole collection.
 */
function wholeCollectionReads(srv: InProcessServer, sql: string): string[] {
  const aliases = new Set(BIG);
  for (const m of sql.matchAll(/\b(corpus_documents|corpus_passages)\s+(?:AS\s+)?(\w+)/gi)) aliases.add(m[2]!);
  const plan = srv.sql.query(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
  return plan
    .map((p) => p.detail)
    .filter((d) => {
      const table = /^(?:SCAN|SEARCH) (\w+)/.exec(d)?.[1];
      return (
        table !== undefined && aliases.has(table) && !/\((collection_id=\? AND doc_id[=>]|document_id=\?\))/.test(d)
      );
    });
}

const doc = (id: string): CorpusDocumentInput => ({
  docId: id,
  title: `Title of ${id}`,
  url: null,
  path: id,
  format: "markdown",
  contentHash: id,
  truncated: false,
  passages: [`the text of ${id}`],
});

let srv: InProcessServer;
let owner: Member;
let reader: Member;
beforeAll(async () => {
  srv = startInProcess({ engine: scriptedEngine() });
  owner = await member(srv, "owner");
  reader = await member(srv, "reader");
  await call(owner, "POST", "/api/console/collections", { name: "big", visibility: "shared" });
  const c = (await srv.deps.store.corpus.findCollection(owner.id, "big"))!;
  await srv.deps.store.corpus.put(
    c.id,
    Array.from({ length: 500 }, (_, i) => doc(`doc-${String(i).padStart(4, "0")}.md`)),
  );
});
afterAll(() => srv?.stop(100));

describe("a collection's routes read what they show, not the whole collection", () => {
  for (const [who, path] of [
    ["its owner", at("big", undefined, "/documents")],
    ["another account", at("big", undefined, "/documents?from=doc-0300.md")],
    ["another account, naming the owner", at("big", "doc-0007.md", "")],
  ] as const) {
    test(`${path} for ${who}: no statement counts or sums the collection's documents or passages`, async () => {
      const m = who === "its owner" ? owner : reader;
      const q = who.endsWith("owner") && who !== "its owner" ? `?owner=${encodeURIComponent(owner.email)}` : "";
      let status = 0;
      const statements = await statementsOf(async () => {
        status = (await call(m, "GET", path + q)).status;
      });
      expect(status).toBe(200);
      expect(statements.some((s) => s.includes("corpus_documents"))).toBe(true);
      expect(statements.flatMap((s) => wholeCollectionReads(srv, s))).toEqual([]);
    });
  }
});
