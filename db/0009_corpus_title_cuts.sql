-- Titles are capped at import (src/text/title.ts). Documents stored earlier with a longer one
-- are listed here; the next start cuts each title and writes its index row again from JS (the
-- index holds dense-script bigrams, which SQL cannot make), then drops the list
-- (src/store/sqlite/title-cuts.ts). Bytes over-count characters: the list is a superset.
CREATE TABLE `corpus_title_cuts` (`document_id` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
INSERT INTO `corpus_title_cuts` (`document_id`) SELECT `id` FROM `corpus_documents` WHERE length(CAST(`title` AS BLOB)) > 300;
