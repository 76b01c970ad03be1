ALTER TABLE "messages" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "change_cursor" bigint;--> statement-breakpoint
CREATE INDEX "messages_change_cursor_idx" ON "messages" USING btree ("change_cursor") WHERE change_cursor is not null;