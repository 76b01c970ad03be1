CREATE TABLE "study_session_presence" (
	"session_id" text NOT NULL,
	"user_id" text NOT NULL,
	"goal" text DEFAULT '' NOT NULL,
	"done" boolean DEFAULT false NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"left" boolean DEFAULT false NOT NULL,
	CONSTRAINT "study_session_presence_session_id_user_id_pk" PRIMARY KEY("session_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "study_session_rsvps" (
	"session_id" text NOT NULL,
	"user_id" text NOT NULL,
	"answer" text NOT NULL,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "study_session_rsvps_session_id_user_id_pk" PRIMARY KEY("session_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "study_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"conversation_kind" text NOT NULL,
	"conversation_id" text NOT NULL,
	"title" text NOT NULL,
	"course" text,
	"starts_at" timestamp with time zone NOT NULL,
	"minutes" integer NOT NULL,
	"time_zone" text NOT NULL,
	"online" boolean NOT NULL,
	"place" text NOT NULL,
	"reminder_minutes" integer NOT NULL,
	"focus_minutes" integer NOT NULL,
	"break_minutes" integer NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"timer_running_since" timestamp with time zone,
	"timer_elapsed_ms" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "study_session_presence" ADD CONSTRAINT "study_session_presence_session_id_study_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."study_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_session_presence" ADD CONSTRAINT "study_session_presence_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_session_rsvps" ADD CONSTRAINT "study_session_rsvps_session_id_study_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."study_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_session_rsvps" ADD CONSTRAINT "study_session_rsvps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_sessions" ADD CONSTRAINT "study_sessions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "study_session_rsvps_user_idx" ON "study_session_rsvps" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "study_sessions_conversation_idx" ON "study_sessions" USING btree ("conversation_kind","conversation_id","starts_at");--> statement-breakpoint
CREATE INDEX "study_sessions_starts_idx" ON "study_sessions" USING btree ("starts_at") WHERE status = 'scheduled';