-- Files uploaded to a collection on their way in (README "Collections for a team"): queued, indexing or
-- failed; a file imported whole leaves no row (its documents are in corpus_documents).
CREATE TABLE `corpus_uploads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`collection_id` integer NOT NULL,
	`doc_id` text NOT NULL,
	`format` text NOT NULL,
	`bytes` integer NOT NULL,
	`spool` text,
	`instance_id` text,
	`status` text NOT NULL,
	`error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`collection_id`) REFERENCES `corpus_collections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `corpus_uploads_doc_idx` ON `corpus_uploads` (`collection_id`,`doc_id`);--> statement-breakpoint
CREATE INDEX `corpus_uploads_status_idx` ON `corpus_uploads` (`status`,`instance_id`);