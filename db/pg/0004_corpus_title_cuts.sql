-- As db/0009_corpus_title_cuts.sql on SQLite: documents with a title longer than the cap of
-- src/text/title.ts, cut and re-indexed by the next start (src/store/postgres/title-cuts.ts).
CREATE TABLE "corpus_title_cuts" ("document_id" integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
INSERT INTO "corpus_title_cuts" ("document_id") SELECT "id" FROM "corpus_documents" WHERE octet_length("title") > 300;
