-- Files uploaded to a collection on their way in (README "Collections for a team"): queued, indexing or
-- failed; a file imported whole leaves no row (its documents are in corpus_documents).
CREATE TABLE "corpus_uploads" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "corpus_uploads_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"collection_id" integer NOT NULL,
	"doc_id" text NOT NULL,
	"format" text NOT NULL,
	"bytes" bigint NOT NULL,
	"spool" text,
	"instance_id" text,
	"status" text NOT NULL,
	"error" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "corpus_uploads" ADD CONSTRAINT "corpus_uploads_collection_id_corpus_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."corpus_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "corpus_uploads_doc_idx" ON "corpus_uploads" USING btree ("collection_id","doc_id");--> statement-breakpoint
CREATE INDEX "corpus_uploads_status_idx" ON "corpus_uploads" USING btree ("status","instance_id");