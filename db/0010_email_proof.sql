-- Whether an account's address is proved (docs/decisions/0091-pre-registration-takeover.md).
-- Accounts from before count as unproven, except those an identity provider already signs in
-- to; unproven accounts keep signing in with their password as before.
CREATE TABLE `email_confirmations` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_confirmations_account_idx` ON `email_confirmations` (`account_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `email_status` text DEFAULT 'unproven' NOT NULL;--> statement-breakpoint
UPDATE `accounts` SET `email_status` = 'proven' WHERE `id` IN (SELECT `account_id` FROM `identities`);
