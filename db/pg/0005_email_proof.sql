-- Whether an account's address is proved, as db/0010_email_proof.sql on SQLite.
CREATE TABLE "email_confirmations" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"created_at" text NOT NULL,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "email_status" text DEFAULT 'unproven' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_confirmations" ADD CONSTRAINT "email_confirmations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_confirmations_account_idx" ON "email_confirmations" USING btree ("account_id","created_at");--> statement-breakpoint
UPDATE "accounts" SET "email_status" = 'proven' WHERE "id" IN (SELECT "account_id" FROM "identities");
