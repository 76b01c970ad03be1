-- When a message's newest change was made (edit, deletion or reaction): a resync on PostgreSQL looks back 10 s from
-- it for changes whose transactions committed late. Reactions had no time of their own, so a late one was missed.
ALTER TABLE "messages" ADD COLUMN "changed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "messages" SET "changed_at" = coalesce("deleted_at", "edited_at") WHERE "change_cursor" IS NOT NULL;
