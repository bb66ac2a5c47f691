CREATE TABLE `instances` (
	`id` text PRIMARY KEY NOT NULL,
	`started_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `runs` ADD `instance_id` text;