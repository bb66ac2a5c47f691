-- Each term's count per document and field, keyed by collection first (README "Searching
-- collections"): a search reads one range per searched collection and term, one row per
-- document, and never another collection's rows. FTS5's own vocabulary has a row per
-- occurrence over the whole index, so a common term in someone else's large collection cost
-- every search its memory and time. WITHOUT ROWID, which drizzle-kit cannot write; rows are
-- written beside the document's index row (src/store/sqlite/corpus-postings.ts).
CREATE TABLE `corpus_postings` (
	`collection_id` integer NOT NULL,
	`term` text NOT NULL,
	`document_id` integer NOT NULL,
	`title_tf` integer NOT NULL,
	`body_tf` integer NOT NULL,
	PRIMARY KEY (`collection_id`, `term`, `document_id`),
	FOREIGN KEY (`document_id`) REFERENCES `corpus_documents`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `corpus_postings_doc_idx` ON `corpus_postings` (`document_id`);
--> statement-breakpoint
INSERT INTO `corpus_postings` (`collection_id`, `term`, `document_id`, `title_tf`, `body_tf`)
SELECT d.`collection_id`, v.`term`, v.`doc`, sum(v.`col` = 'title'), sum(v.`col` = 'body')
FROM `corpus_docs_terms` v JOIN `corpus_documents` d ON d.`id` = v.`doc`
GROUP BY v.`term`, v.`doc`;
