CREATE TABLE "coursework_cache" (
	"user_id" text PRIMARY KEY NOT NULL,
	"connection_id" text NOT NULL,
	"courses_key" text NOT NULL,
	"courses" jsonb NOT NULL,
	"coursework" jsonb NOT NULL,
	"skipped_courses" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lms_refresh_counts" (
	"user_id" text NOT NULL,
	"day" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "lms_refresh_counts_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "coursework_cache" ADD CONSTRAINT "coursework_cache_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lms_refresh_counts" ADD CONSTRAINT "lms_refresh_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;