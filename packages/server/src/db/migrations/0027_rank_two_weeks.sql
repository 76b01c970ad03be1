-- Ranking by free time over Find a time's two-week window (issue 27 part 5): three UTC weeks of bits from the
-- Monday in utc_from. The usual week stored so far is repeated three times from this week's Monday; the daily
-- refresh computes every student's bits again (imported busy times included).
ALTER TABLE "schedule_weeks" ALTER COLUMN "utc_free" SET DATA TYPE bit(1008) USING ("utc_free" || "utc_free" || "utc_free");--> statement-breakpoint
ALTER TABLE "schedule_weeks" ADD COLUMN "utc_from" date;--> statement-breakpoint
UPDATE "schedule_weeks" SET "utc_from" = date_trunc('week', now() AT TIME ZONE 'UTC')::date;--> statement-breakpoint
ALTER TABLE "schedule_weeks" ALTER COLUMN "utc_from" SET NOT NULL;
