CREATE TABLE `corpus_collections` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `corpus_collections_name_uq` ON `corpus_collections` (`name`);--> statement-breakpoint
CREATE TABLE `corpus_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`collection_id` integer NOT NULL,
	`doc_id` text NOT NULL,
	`title` text NOT NULL,
	`url` text,
	`path` text,
	`format` text NOT NULL,
	`content_hash` text NOT NULL,
	`chars` integer NOT NULL,
	`truncated` integer DEFAULT 0 NOT NULL,
	`added_at` text NOT NULL,
	FOREIGN KEY (`collection_id`) REFERENCES `corpus_collections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `corpus_documents_doc_uq` ON `corpus_documents` (`collection_id`,`doc_id`);--> statement-breakpoint
CREATE TABLE `corpus_passages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`text` text NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `corpus_documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `corpus_passages_doc_idx` ON `corpus_passages` (`document_id`,`seq`);