-- Each document's index terms, keyed by collection (README "Searching collections"): a
-- contentless FTS5 table whose terms are `<collection id>_<term>`, the term as the index's
-- tokenizer made it (src/store/sqlite/corpus-postings.ts writes them). A search reads one term
-- of its own collections through the vocabulary tables below and never another collection's
-- occurrences: the global index's vocabulary had a row per occurrence over every collection,
-- so a common term in someone else's large collection cost every search its memory and time.
-- FTS5 rather than a table ordered by term: its segments are appended and merged, so a batch
-- of documents is not written into pages all over the index. This tokenizer only splits on
-- spaces the writer put there ('_' kept, never in a term of the index's tokenizer) and folds
-- case already folded: a term comes back exactly as written.
CREATE VIRTUAL TABLE `corpus_terms_fts` USING fts5(title, body, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0 tokenchars '_'");
--> statement-breakpoint
-- One row per occurrence (for its counts per document and field), one per term (its documents).
CREATE VIRTUAL TABLE `corpus_terms_occurrences` USING fts5vocab(`corpus_terms_fts`, 'instance');
--> statement-breakpoint
CREATE VIRTUAL TABLE `corpus_terms_vocab` USING fts5vocab(`corpus_terms_fts`, 'row');
--> statement-breakpoint
-- A document's terms go with it, however it goes (with its collection or its owner too).
CREATE TRIGGER `corpus_documents_terms_ad` AFTER DELETE ON `corpus_documents` BEGIN
  DELETE FROM `corpus_terms_fts` WHERE rowid = old.`id`;
END;
--> statement-breakpoint
INSERT INTO `corpus_terms_fts` (rowid, title, body)
SELECT v.`doc`,
  group_concat(iif(v.`col` = 'title', d.`collection_id` || '_' || v.`term`, NULL), ' '),
  group_concat(iif(v.`col` = 'body', d.`collection_id` || '_' || v.`term`, NULL), ' ')
FROM `corpus_docs_terms` v JOIN `corpus_documents` d ON d.`id` = v.`doc`
GROUP BY v.`doc`;
--> statement-breakpoint
-- The documents' lengths in index terms, kept on their rows (drizzle-kit wrote these two).
ALTER TABLE `corpus_documents` ADD `title_len` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `corpus_documents` ADD `body_len` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- FTS5's docsize of each document: its count of tokens per column, one row of
-- corpus_docs_terms per token.
UPDATE `corpus_documents` SET `title_len` = x.t, `body_len` = x.b
FROM (SELECT `doc` AS id, sum(`col` = 'title') AS t, sum(`col` = 'body') AS b FROM `corpus_docs_terms` GROUP BY `doc`) x
WHERE `corpus_documents`.`id` = x.id;
--> statement-breakpoint
-- The index of documents across collections goes: nothing reads it any more.
DROP TRIGGER `corpus_documents_fts_ad`;
--> statement-breakpoint
DROP TABLE `corpus_docs_terms`;
--> statement-breakpoint
DROP TABLE `corpus_docs_vocab`;
--> statement-breakpoint
DROP TABLE `corpus_docs_fts`;
