-- Collections owned by accounts (README "Collections for a team"). Collections made before
-- owners existed stay readable by every account: `shared`, no owner.
DROP INDEX `corpus_collections_name_uq`;--> statement-breakpoint
ALTER TABLE `corpus_collections` ADD `owner_id` text REFERENCES accounts(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `corpus_collections` ADD `visibility` text DEFAULT 'shared' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `corpus_collections_owner_name_uq` ON `corpus_collections` (coalesce(`owner_id`, ''),`name`);--> statement-breakpoint
ALTER TABLE `corpus_documents` ADD `bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `corpus_documents` SET `bytes` = coalesce((SELECT sum(length(CAST(p.`text` AS BLOB))) FROM `corpus_passages` p WHERE p.`document_id` = `corpus_documents`.`id`), 0);
