-- Match finder (features/social): students sharing the viewer's courses are counted by an index-only scan.
CREATE INDEX "profile_courses_key_user_idx" ON "profile_courses" USING btree ("course_key", "user_id");
