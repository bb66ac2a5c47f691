-- Each term's count per document and field, keyed by collection first (README "Searching
-- collections"): a search reads one range per searched collection and term, one row per
-- document, and never another collection's rows. FTS5's own vocabulary has a row per
-- occurrence over the whole index, so a common term in someone else's large collection cost
-- every search its memory and time. WITHOUT ROWID, which drizzle-kit cannot write; rows are
-- written beside the document's row (src/store/sqlite/corpus-postings.ts).
CREATE TABLE `corpus_postings` (
	`collection_id` integer NOT NULL,
	`term` text NOT NULL,
	`document_id` integer NOT NULL,
	`title_tf` integer NOT NULL,
	`body_tf` integer NOT NULL,
	PRIMARY KEY (`collection_id`, `term`, `document_id`)
) WITHOUT ROWID;
--> statement-breakpoint
-- No index by document, nor so a foreign key (its cascade would need one): a document's rows
-- are deleted by its terms, before it (src/store/sqlite/corpus-postings.ts), and a
-- collection's here, one range, however it goes (also with its owner's account).
CREATE TRIGGER `corpus_collections_postings_ad` AFTER DELETE ON `corpus_collections` BEGIN
  DELETE FROM `corpus_postings` WHERE `collection_id` = old.`id`;
END;
--> statement-breakpoint
INSERT INTO `corpus_postings` (`collection_id`, `term`, `document_id`, `title_tf`, `body_tf`)
SELECT d.`collection_id`, v.`term`, v.`doc`, sum(v.`col` = 'title'), sum(v.`col` = 'body')
FROM `corpus_docs_terms` v JOIN `corpus_documents` d ON d.`id` = v.`doc`
GROUP BY v.`term`, v.`doc`;
--> statement-breakpoint
-- The documents' lengths in index terms, kept on their rows (drizzle-kit wrote these two).
ALTER TABLE `corpus_documents` ADD `title_len` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `corpus_documents` ADD `body_len` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- FTS5's docsize of each document: its count of tokens per column, which is the sum of its
-- terms' counts (one row of corpus_docs_terms per token).
UPDATE `corpus_documents` SET `title_len` = x.t, `body_len` = x.b
FROM (SELECT `document_id` AS id, sum(`title_tf`) AS t, sum(`body_tf`) AS b FROM `corpus_postings` GROUP BY `document_id`) x
WHERE `corpus_documents`.`id` = x.id;
--> statement-breakpoint
-- The postings and the lengths are all a search read of the FTS5 index: it goes, and with it
-- a second tokenizing and writing of every document at import.
DROP TRIGGER `corpus_documents_fts_ad`;
--> statement-breakpoint
DROP TABLE `corpus_docs_terms`;
--> statement-breakpoint
DROP TABLE `corpus_docs_vocab`;
--> statement-breakpoint
DROP TABLE `corpus_docs_fts`;
