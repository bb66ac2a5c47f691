-- Collections owned by accounts, as db/0007_collection_owners.sql on SQLite.
DROP INDEX "corpus_collections_name_uq";--> statement-breakpoint
ALTER TABLE "corpus_collections" ADD COLUMN "owner_id" text;--> statement-breakpoint
ALTER TABLE "corpus_collections" ADD COLUMN "visibility" text DEFAULT 'shared' NOT NULL;--> statement-breakpoint
ALTER TABLE "corpus_documents" ADD COLUMN "bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "corpus_collections" ADD CONSTRAINT "corpus_collections_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "corpus_collections_owner_name_uq" ON "corpus_collections" USING btree (coalesce("owner_id", ''),"name");--> statement-breakpoint
UPDATE "corpus_documents" d SET "bytes" = coalesce((SELECT sum(octet_length(p."text")) FROM "corpus_passages" p WHERE p."document_id" = d."id"), 0);
