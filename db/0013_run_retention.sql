CREATE TABLE `run_tallies` (
	`account_id` text NOT NULL,
	`date` text NOT NULL,
	`period` text NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`ok` integer DEFAULT 0 NOT NULL,
	`error` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `date`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `runs_created_idx` ON `runs` (`created_at`);