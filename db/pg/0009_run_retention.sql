CREATE TABLE "run_tallies" (
	"account_id" text NOT NULL,
	"date" text NOT NULL,
	"period" text NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"ok" integer DEFAULT 0 NOT NULL,
	"error" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "run_tallies_account_id_date_pk" PRIMARY KEY("account_id","date")
);
--> statement-breakpoint
ALTER TABLE "run_tallies" ADD CONSTRAINT "run_tallies_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "runs_created_idx" ON "runs" USING btree ("created_at");