-- One search box (features/search, issue 17). The 'simple' configuration on purpose: words are only lower-cased,
-- never stemmed, so the prefix a student has typed so far ('assig':*) matches the words that start with it in any
-- language ('english' would stem 'running' to 'run', which the typed prefix 'runni' no longer matches).
-- Messages: only text messages have words (an image's or voice message's content is a file address).
ALTER TABLE "messages" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (CASE WHEN "type" = 'text' THEN to_tsvector('simple'::regconfig, "content") END) STORED;--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search_vector");--> statement-breakpoint
-- Document pages: the first 100,000 characters of a page (a tsvector holds at most 1 MB; a page is rarely longer).
ALTER TABLE "document_pages" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, left("text", 100000))) STORED;--> statement-breakpoint
CREATE INDEX "document_pages_search_idx" ON "document_pages" USING gin ("search_vector");--> statement-breakpoint
-- Students by any word of their name, over complete profiles only (the predicate of social.sql.ts COMPLETE).
CREATE INDEX "profiles_name_search_idx" ON "profiles" USING gin (to_tsvector('simple'::regconfig, "name")) WHERE btrim("name") <> '' AND btrim("major") <> '' AND "year" <> '' AND "has_custom_profile_picture";
