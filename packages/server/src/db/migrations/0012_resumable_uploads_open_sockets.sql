CREATE TABLE "resumable_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"size" bigint NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lock_token" text,
	"locked_until" timestamp with time zone,
	"release_requested" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"storing_until" timestamp with time zone,
	"result" jsonb,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "open_sockets" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"instance_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "realtime_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "resumable_uploads" ADD CONSTRAINT "resumable_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "open_sockets" ADD CONSTRAINT "open_sockets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "open_sockets" ADD CONSTRAINT "open_sockets_instance_id_realtime_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."realtime_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "resumable_uploads_user_idx" ON "resumable_uploads" USING btree ("user_id","state");--> statement-breakpoint
CREATE INDEX "open_sockets_user_idx" ON "open_sockets" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "open_sockets_instance_idx" ON "open_sockets" USING btree ("instance_id");