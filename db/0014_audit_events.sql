-- The audit trail (README "The audit trail"): one row per security-relevant change, written in
-- its transaction; failed sign-ins past their bound counted in `cut` of the last row written.
CREATE TABLE `audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text NOT NULL,
	`action` text NOT NULL,
	`actor_id` text,
	`actor` text,
	`target_id` text,
	`target` text,
	`ip` text,
	`detail` text,
	`cut` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_events_at_idx` ON `audit_events` (`at`);--> statement-breakpoint
CREATE INDEX `audit_events_actor_idx` ON `audit_events` (`actor_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_target_idx` ON `audit_events` (`target_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_failed_ip_idx` ON `audit_events` (`action`,`ip`,`at`);--> statement-breakpoint
CREATE INDEX `audit_events_failed_target_idx` ON `audit_events` (`action`,`target`,`at`);