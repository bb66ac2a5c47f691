import type { SQL } from "bun";
import { capTitle } from "../../text/title.ts";
import { denseBigrams } from "../dense-bigrams.ts";
import { TS_CONFIG } from "./corpus-index.ts";

/**
 * Cuts the titles db/pg/0004_corpus_title_cuts.sql listed and counts each document's terms
 * again as corpus-index.ts does at import (title and body together: a tsvector's positions
 * run on from the title into the body), so the index matches the cut title; then drops the
 * list. Runs in the migration's transaction, under its lock. Returns the titles cut.
 */
export async function cutLongTitles(tx: SQL): Promise<number> {
  if (!(await tx`SELECT to_regclass('corpus_title_cuts') IS NOT NULL AS listed`)[0].listed) return 0;
  const ids = await tx`SELECT document_id FROM corpus_title_cuts ORDER BY document_id`;
  const touched = new Set<number>();
  let cut = 0;
  for (const { document_id: id } of ids as { document_id: number }[]) {
    const [d] = await tx`SELECT doc_id, title, collection_id FROM corpus_documents WHERE id = ${id}`;
    const title: string | undefined = d && (capTitle(d.title) || d.doc_id);
    if (!d || title === d.title) continue;
    const passages = await tx`SELECT text FROM corpus_passages WHERE document_id = ${id} ORDER BY seq`;
    const body = denseBigrams(passages.map((p: { text: string }) => p.text).join("\n"));
    await tx`DELETE FROM corpus_terms WHERE document_id = ${id}`;
    await tx`WITH v AS (
        SELECT u.lexeme, count(*) FILTER (WHERE w = 'A')::int AS t, count(*) FILTER (WHERE w = 'D')::int AS b
        FROM unnest(setweight(to_tsvector(${TS_CONFIG}::regconfig, ${denseBigrams(title!)}), 'A')
          || setweight(to_tsvector(${TS_CONFIG}::regconfig, ${body}), 'D')) u, unnest(u.weights) w
        GROUP BY u.lexeme
      ), terms AS (
        INSERT INTO corpus_terms (document_id, term, title_tf, body_tf, collection_id)
        SELECT ${id}, lexeme, t, b, ${d.collection_id} FROM v
      )
      UPDATE corpus_documents SET title = ${title!},
        title_len = (SELECT coalesce(sum(t), 0) FROM v), body_len = (SELECT coalesce(sum(b), 0) FROM v)
      WHERE id = ${id}`;
    touched.add(d.collection_id);
    cut++;
  }
  // Other instances' rankers read the changed collections again (corpus-index.ts touchCollection).
  for (const c of touched) await tx`UPDATE corpus_collections SET version = version + 1 WHERE id = ${c}`;
  await tx`DROP TABLE corpus_title_cuts`;
  return cut;
}
