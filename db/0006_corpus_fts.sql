-- Full-text indexes over collections (README "Collections"); drizzle-kit has no virtual tables.
-- Documents: title and whole text, ranked by bm25 for retrieval; contentless (the text lives
-- in corpus_passages), rows deleted with their document.
CREATE VIRTUAL TABLE `corpus_docs_fts` USING fts5(title, body, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `corpus_documents_fts_ad` AFTER DELETE ON `corpus_documents` BEGIN
  DELETE FROM `corpus_docs_fts` WHERE rowid = old.id;
END;
--> statement-breakpoint
-- Passages: the best passages of a hit for the rank stage; kept in step by triggers.
CREATE VIRTUAL TABLE `corpus_passages_fts` USING fts5(text, content='corpus_passages', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `corpus_passages_fts_ai` AFTER INSERT ON `corpus_passages` BEGIN
  INSERT INTO `corpus_passages_fts` (rowid, text) VALUES (new.id, new.text);
END;
--> statement-breakpoint
CREATE TRIGGER `corpus_passages_fts_ad` AFTER DELETE ON `corpus_passages` BEGIN
  INSERT INTO `corpus_passages_fts` (`corpus_passages_fts`, rowid, text) VALUES ('delete', old.id, old.text);
END;
--> statement-breakpoint
-- Read-only views of the document index for ranking in JS (src/store/sqlite/corpus-index-reads.ts):
-- each occurrence of a term (for its counts per document and column), and each term's document count.
CREATE VIRTUAL TABLE `corpus_docs_terms` USING fts5vocab(`corpus_docs_fts`, 'instance');
--> statement-breakpoint
CREATE VIRTUAL TABLE `corpus_docs_vocab` USING fts5vocab(`corpus_docs_fts`, 'row');
