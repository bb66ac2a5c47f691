import { describe, expect, test } from "bun:test";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/open.ts";
import type { CorpusDocumentInput } from "../../../src/store/types.ts";
import { textDoc } from "../../corpus/search/search-helpers.ts";

/** A document of several passages (the index splits them joined by lines). */
const doc = (docId: string, title: string, ...passages: string[]): CorpusDocumentInput => ({
  ...textDoc(docId, title, passages.join("|")),
  passages,
});

const notes = [
  doc("tides.md", "Tides", "Tides follow the moon; tides rise", "and the moon pulls the sea"),
  doc("kyoto.md", "東京の潮汐 Tides", `${"moon tide ".repeat(150)}潮の満ち引き`),
  doc("cats.md", "Cats", "cats sleep all day"),
];

/** Every document's terms and counts by collection name and document id, and every document's lengths. */
function rows(s: SqliteStore) {
  return {
    postings: s.raw
      .query(
        `SELECT c.name, d.doc_id, substr(v.term, instr(v.term, '_') + 1) AS t, sum(v.col = 'title'), sum(v.col = 'body'),
           substr(v.term, 1, instr(v.term, '_') - 1) = CAST(d.collection_id AS TEXT)
         FROM corpus_terms_occurrences v JOIN corpus_documents d ON d.id = v.doc
         JOIN corpus_collections c ON c.id = d.collection_id GROUP BY v.doc, v.term ORDER BY 1, 2, 3`,
      )
      .values(),
    orphans: s.raw
      .query("SELECT count(*) FROM corpus_terms_occurrences WHERE doc NOT IN (SELECT id FROM corpus_documents)")
      .values(),
    // Document frequencies (the row vocabulary, which a search reads) agree with the occurrences.
    frequencies: s.raw
      .query(
        `SELECT count(*) FROM corpus_terms_vocab v
         WHERE v.doc <> (SELECT count(DISTINCT o.doc) FROM corpus_terms_occurrences o WHERE o.term = v.term)`,
      )
      .values(),
    lengths: s.raw.query("SELECT doc_id, title_len, body_len FROM corpus_documents ORDER BY doc_id").values(),
  };
}

/**
 * A document's terms in corpus_terms_fts go with its row (a trigger), also when its collection
 * or its owner goes. Whatever was replaced, removed or went with its collection or owner, the
 * terms left are exactly those a fresh import of what remains writes, each under its collection.
 */
describe("SQLite postings of documents changed and removed", () => {
  test("replaced, removed, with its collection, with its owner: no row left behind, none missing", async () => {
    const s = openSqliteStore(":memory:");
    await s.accounts.insert({
      id: "a",
      email: "a@x.org",
      passwordHash: null,
      plan: "free",
      createdAt: "2026-11-01T00:00:00Z",
      emailStatus: "unproven",
    });
    const own = (await s.corpus.createCollection({ name: "mine", ownerId: "a", visibility: "private" }))!;
    await s.corpus.put(own.id, [doc("x.md", "Moon", "moon moon tide")]);
    const gone = (await s.corpus.createCollection({ name: "gone", ownerId: null, visibility: "shared" }))!;
    await s.corpus.put(gone.id, [doc("y.md", "Sea", "the sea")]);
    const kept = (await s.corpus.createCollection({ name: "notes", ownerId: null, visibility: "shared" }))!;
    await s.corpus.put(kept.id, [...notes, doc("old.md", "Old", "an old note about tides")]);
    // Replaced (new text), removed, a collection removed, an owner deleted with their collection.
    await s.corpus.put(kept.id, [doc("cats.md", "Cats", "cats sleep all night", "dogs do not")]);
    expect(await s.corpus.removeDocuments(kept.id, ["old.md"])).toBe(1);
    await s.corpus.removeCollection(gone.id);
    s.raw.run("DELETE FROM accounts WHERE id = 'a'");

    const fresh = openSqliteStore(":memory:");
    const again = (await fresh.corpus.createCollection({ name: "notes", ownerId: null, visibility: "shared" }))!;
    await fresh.corpus.put(again.id, [
      ...notes.slice(0, 2),
      doc("cats.md", "Cats", "cats sleep all night", "dogs do not"),
    ]);
    const after = rows(s);
    expect(after.orphans).toEqual([[0]]);
    expect(after).toEqual(rows(fresh));
    expect(after.postings.some(([, d, t]) => d === "cats.md" && t === "dog")).toBe(true);
    expect(after.postings.every((r) => r[5] === 1)).toBe(true);
    expect(after.frequencies).toEqual([[0]]);
    s.close();
    fresh.close();
  });

  test("a document's term counts (feedback's) and lengths are its occurrences' sums", async () => {
    const s = openSqliteStore(":memory:");
    const c = (await s.corpus.createCollection({ name: "notes", ownerId: null, visibility: "shared" }))!;
    await s.corpus.put(c.id, notes);
    const ids = (s.raw.query("SELECT id FROM corpus_documents ORDER BY id").values() as [number][]).map((r) => r[0]);
    const counts = await s.corpusIndex.termCounts(ids);
    const len = await s.corpusIndex.lengths([c.id]);
    for (const id of ids) {
      const own = s.raw
        .query(
          `SELECT substr(term, instr(term, '_') + 1) AS t, sum(col = 'title'), sum(col = 'body')
           FROM corpus_terms_occurrences WHERE doc = ? GROUP BY term ORDER BY t`,
        )
        .values(id) as [string, number, number][];
      expect([...counts.get(id)!].sort()).toEqual(own.map(([t, a, b]) => [t, a + b]));
      const i = [...len.ids].indexOf(id);
      expect([len.title[i], len.body[i]]).toEqual([
        own.reduce((n, r) => n + r[1], 0),
        own.reduce((n, r) => n + r[2], 0),
      ]);
    }
    s.close();
  });
});
