-- Match finder and user search (features/social): partial indexes over complete profiles only
-- (name, major, year and a custom picture: the same predicate as social.repository.ts COMPLETE).
-- Ids sort in the "C" collation so the SQL order equals the shared rule's order everywhere.
CREATE INDEX "profiles_match_recent_idx" ON "profiles" USING btree ("college", "created_at", "user_id" COLLATE "C") WHERE btrim("name") <> '' AND btrim("major") <> '' AND "year" <> '' AND "has_custom_profile_picture";--> statement-breakpoint
CREATE INDEX "profiles_match_major_idx" ON "profiles" USING btree ("college", lower(btrim("major")), "created_at", "user_id" COLLATE "C") WHERE btrim("name") <> '' AND btrim("major") <> '' AND "year" <> '' AND "has_custom_profile_picture";--> statement-breakpoint
CREATE INDEX "profiles_match_year_idx" ON "profiles" USING btree ("college", "year", "created_at", "user_id" COLLATE "C") WHERE btrim("name") <> '' AND btrim("major") <> '' AND "year" <> '' AND "has_custom_profile_picture";--> statement-breakpoint
CREATE INDEX "profiles_search_name_idx" ON "profiles" USING btree ("college", "lowercase_name" text_pattern_ops) WHERE btrim("name") <> '' AND btrim("major") <> '' AND "year" <> '' AND "has_custom_profile_picture";
