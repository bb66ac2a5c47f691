-- Postings keyed by collection first (README "Searching collections"): a search reads its own
-- collections' rows and no others', whatever another collection holds. The column is filled
-- from the documents before it is made NOT NULL (drizzle-kit would add it NOT NULL at once).
DROP INDEX "corpus_terms_term_idx";--> statement-breakpoint
ALTER TABLE "corpus_terms" ADD COLUMN "collection_id" integer;--> statement-breakpoint
UPDATE "corpus_terms" t SET "collection_id" = d."collection_id" FROM "corpus_documents" d WHERE d."id" = t."document_id";--> statement-breakpoint
ALTER TABLE "corpus_terms" ALTER COLUMN "collection_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "corpus_terms_collection_term_idx" ON "corpus_terms" USING btree ("collection_id","term","document_id","title_tf","body_tf");
