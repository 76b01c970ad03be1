CREATE TABLE "stored_files" (
	"user_id" text NOT NULL,
	"path" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_files_user_id_path_pk" PRIMARY KEY("user_id","path")
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "owner" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_owner_claimed_idx" ON "jobs" USING btree ("owner","claimed_at");--> statement-breakpoint
-- Files stored before the ledger existed: course documents are known with their sizes (chat and profile files are counted from their next upload on).
INSERT INTO "stored_files" ("user_id", "path", "size") SELECT "user_id", "storage_path", max("size") FROM "course_documents" WHERE "storage_path" IS NOT NULL GROUP BY "user_id", "storage_path" ON CONFLICT DO NOTHING;
