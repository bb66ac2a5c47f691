import type { Database } from "bun:sqlite";
import { capTitle } from "../../text/title.ts";
import { postingsWriter } from "./corpus-postings.ts";

/**
 * Cuts the titles db/0009_corpus_title_cuts.sql listed (stored before titles were capped at
 * import) and writes their index terms again, so the index's title terms and lengths are the
 * cut title's; then drops the list, so later starts pay one lookup. One transaction: a second
 * process starting on the same file finds the list gone. Returns the titles cut.
 */
export function cutLongTitles(db: Database): number {
  const listed = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'corpus_title_cuts'");
  if (!listed.get()) return 0;
  return db
    .transaction(() => {
      if (!listed.get()) return 0;
      const ids = db.query<{ document_id: number }, []>("SELECT document_id FROM corpus_title_cuts").all();
      const doc = db.prepare<{ doc_id: string; title: string; collection_id: number }, [number]>(
        "SELECT doc_id, title, collection_id FROM corpus_documents WHERE id = ?",
      );
      const passages = db.prepare<{ text: string }, [number]>(
        "SELECT text FROM corpus_passages WHERE document_id = ? ORDER BY seq",
      );
      const postings = postingsWriter(db);
      let cut = 0;
      for (const { document_id: id } of ids) {
        const d = doc.get(id);
        const title = d && (capTitle(d.title) || d.doc_id);
        if (!d || title === d.title) continue;
        const body = passages
          .all(id)
          .map((p) => p.text)
          .join("\n");
        db.run("UPDATE corpus_documents SET title = ? WHERE id = ?", [title!, id]);
        db.run("DELETE FROM corpus_terms_fts WHERE rowid = ?", [id]);
        postings.add(id, title!, body);
        postings.flush(d.collection_id);
        cut++;
      }
      db.run("DROP TABLE corpus_title_cuts");
      return cut;
    })
    .immediate();
}
