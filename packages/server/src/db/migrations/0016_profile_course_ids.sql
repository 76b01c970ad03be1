-- Issue 23: profile courses typed by hand get ids the server makes, never the client's (a hot group opens for a
-- profile course by its id). A stored course id stays only when the student's imported coursework holds that
-- course as Canvas answered it (one of its items, or the course with at least one list Canvas did not refuse:
-- the rule of lms.repository.ts holdsCourseSql); any other id (typed by hand, seeded, or chosen by a client, e.g.
-- a hot group's course) becomes 'manual-<uuid>', and the student's course documents of that course follow it.
CREATE TEMPORARY TABLE "rekeyed_profile_courses" AS
SELECT p."user_id", c."ord", c."course"->>'id' AS "old_id", 'manual-' || gen_random_uuid()::text AS "new_id"
FROM "profiles" p
CROSS JOIN LATERAL jsonb_array_elements(p."courses") WITH ORDINALITY AS c("course", "ord")
WHERE NOT EXISTS (
  SELECT 1 FROM "coursework_cache" cc
  WHERE cc."user_id" = p."user_id"
    AND (cc."coursework" @> jsonb_build_array(jsonb_build_object('course_id', c."course"->>'id'))
      OR (cc."courses" @> jsonb_build_array(jsonb_build_object('id', c."course"->>'id'))
        AND NOT cc."skipped_courses" @> jsonb_build_array(jsonb_build_object(
          'course_id', c."course"->>'id',
          'skipped_types', '["assignment", "quiz", "discussion", "module_item"]'::jsonb))))
);
--> statement-breakpoint
UPDATE "course_documents" d SET "course_id" = r."new_id"
FROM "rekeyed_profile_courses" r
WHERE d."user_id" = r."user_id" AND d."course_id" = r."old_id";
--> statement-breakpoint
UPDATE "profiles" p SET "courses" = (
  SELECT jsonb_agg(
    CASE WHEN r."new_id" IS NULL THEN c."course" ELSE jsonb_set(c."course", '{id}', to_jsonb(r."new_id")) END
    ORDER BY c."ord")
  FROM jsonb_array_elements(p."courses") WITH ORDINALITY AS c("course", "ord")
  LEFT JOIN "rekeyed_profile_courses" r ON r."user_id" = p."user_id" AND r."ord" = c."ord"
)
WHERE p."user_id" IN (SELECT "user_id" FROM "rekeyed_profile_courses");
--> statement-breakpoint
DROP TABLE "rekeyed_profile_courses";
