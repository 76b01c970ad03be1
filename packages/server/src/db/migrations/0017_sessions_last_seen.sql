ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Sessions opened before this migration were last seen no earlier than they were opened.
UPDATE "sessions" SET "last_seen_at" = "created_at";
