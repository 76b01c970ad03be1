CREATE TABLE "lms_connections" (
	"user_id" text PRIMARY KEY NOT NULL,
	"canvas_url" text DEFAULT '' NOT NULL,
	"canvas_access_token" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lms_connections" ADD CONSTRAINT "lms_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The Canvas link moves out of the profile into a table the LMS feature owns; every stored link comes along.
INSERT INTO "lms_connections" ("user_id", "canvas_url", "canvas_access_token", "updated_at")
SELECT "user_id", "canvas_url", "canvas_access_token", "updated_at" FROM "profiles"
WHERE "canvas_url" <> '' OR "canvas_access_token" <> '';--> statement-breakpoint
ALTER TABLE "profiles" DROP COLUMN "canvas_access_token";--> statement-breakpoint
ALTER TABLE "profiles" DROP COLUMN "canvas_url";