CREATE TABLE "schedule_busy" (
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	"series_key" text NOT NULL,
	"title" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	CONSTRAINT "schedule_busy_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "schedule_imports" (
	"user_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"last_import_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "schedule_overrides" (
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	CONSTRAINT "schedule_overrides_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "schedule_weeks" (
	"user_id" text PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"cells" text NOT NULL,
	"utc_free" bit(336) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedule_busy" ADD CONSTRAINT "schedule_busy_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_imports" ADD CONSTRAINT "schedule_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_overrides" ADD CONSTRAINT "schedule_overrides_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_weeks" ADD CONSTRAINT "schedule_weeks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schedule_busy_user_start_idx" ON "schedule_busy" USING btree ("user_id","starts_at");--> statement-breakpoint
CREATE INDEX "schedule_weeks_updated_idx" ON "schedule_weeks" USING btree ("updated_at");