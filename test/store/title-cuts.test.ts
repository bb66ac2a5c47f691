import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPostgresStore } from "../../src/store/postgres/open.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import type { Store } from "../../src/store/types.ts";
import { capTitle, MAX_TITLE_CHARS } from "../../src/text/title.ts";
import { putInto, sharedCollection } from "../corpus/collections-helpers.ts";
import { freshDatabase, postgresTests } from "../helpers/postgres.ts";

// A title as imports stored it before the cap: 2,000 distinct words, one only at its head.
const LONG = ["headword", ...Array.from({ length: 2000 }, (_, i) => `tail${i}word`)].join(" ");
const BODY = "Cell membranes hold proteins that carry ions across the lipid bilayer of every living cell.";

/** A database as an older version left it: a long title stored, the title migration not yet applied. */
interface Reopenable {
  name: string;
  open(): Promise<Store>;
  /** Forgets the migration (as if the database predates it), so the next open applies it. */
  forget(s: Store): Promise<void>;
  done(): void;
}

function sqliteFile(): Reopenable {
  const dir = mkdtempSync(join(tmpdir(), "rq-titles-"));
  const path = join(dir, "rq.db");
  return {
    name: "sqlite",
    open: async () => openSqliteStore(path),
    forget: async (s) => {
      (s as ReturnType<typeof openSqliteStore>).raw.run(
        "DELETE FROM __migrations WHERE tag = '0009_corpus_title_cuts'",
      );
    },
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresDb(): Promise<Reopenable> {
  const url = await freshDatabase();
  return {
    name: "postgres",
    open: () => openPostgresStore(url, { max: 2 }),
    forget: async (s) => {
      await (s as Awaited<ReturnType<typeof openPostgresStore>>)
        .raw`DELETE FROM __migrations WHERE tag = '0004_corpus_title_cuts'`;
    },
    done: () => {},
  };
}

const cases: [string, () => Promise<Reopenable>][] = [["sqlite", async () => sqliteFile()]];
if (postgresTests) cases.push(["postgres", postgresDb]);

describe("titles stored before the cap are cut by the migration", () => {
  for (const [name, make] of cases)
    test(`${name}: the title is cut and its index terms and length are the cut title's`, async () => {
      const db = await make();
      try {
        let store = await db.open();
        // The store writes what it is given; the cap is the importers' (and this migration's).
        await putInto(store, "old", [
          {
            docId: "d1",
            title: LONG,
            url: null,
            path: null,
            format: "jsonl",
            contentHash: "h1",
            truncated: false,
            passages: [BODY],
          },
        ]);
        await db.forget(store);
        await store.close();

        store = await db.open();
        const cid = (await sharedCollection(store, "old")).id;
        const [doc] = await store.corpus.documents(cid);
        expect(doc!.title).toBe(capTitle(LONG));
        expect(doc!.title.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
        const [head] = await store.corpusIndex.analyse("headword");
        const [tail] = await store.corpusIndex.analyse("tail1999word");
        const postings = await store.corpusIndex.postings([head!, tail!], [cid]);
        expect(postings.get(head!)!.title).toEqual([1]);
        // A word only in the cut-off part of the title is no longer in the index.
        expect(postings.get(tail!)!.docs).toEqual([]);
        const lengths = await store.corpusIndex.lengths([cid]);
        expect(lengths.title[0]).toBe((await store.corpusIndex.analyse(doc!.title)).length);
        // The body is indexed as before.
        const [cell] = await store.corpusIndex.analyse("membranes");
        expect((await store.corpusIndex.postings([cell!], [cid])).get(cell!)!.body).toEqual([1]);
        await store.close();
        // A later start finds nothing left to cut.
        store = await db.open();
        expect((await store.corpus.documents(cid))[0]!.title).toBe(doc!.title);
        await store.close();
      } finally {
        db.done();
      }
    });
});
