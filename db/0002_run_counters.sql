CREATE TABLE `run_counters` (
	`account_id` text NOT NULL,
	`period` text NOT NULL,
	`runs` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `period`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Backfill (hand-written): the runs already counted this way before the table existed.
INSERT INTO `run_counters` (`account_id`, `period`, `runs`)
	SELECT `account_id`, `period`, COUNT(*) FROM `runs` WHERE `account_id` IS NOT NULL GROUP BY `account_id`, `period`;
