-- The text search configuration of collections (README "Collections"); drizzle-kit has none.
-- English stemming as FTS5's porter tokenizer does on SQLite, and no stop words: a query of
-- only stop words still searches its words, and a document's every word counts in its length.
CREATE TEXT SEARCH DICTIONARY rq_english_stem (TEMPLATE = snowball, LANGUAGE = english);
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION rq_english (COPY = pg_catalog.english);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION rq_english
  ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH rq_english_stem;
