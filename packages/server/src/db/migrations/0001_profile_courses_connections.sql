CREATE TABLE "connections" (
	"user_id" text NOT NULL,
	"friend_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connections_user_id_friend_id_pk" PRIMARY KEY("user_id","friend_id")
);
--> statement-breakpoint
CREATE TABLE "profile_courses" (
	"user_id" text NOT NULL,
	"course_key" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "profile_courses_user_id_course_key_pk" PRIMARY KEY("user_id","course_key")
);
--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_friend_id_users_id_fk" FOREIGN KEY ("friend_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_courses" ADD CONSTRAINT "profile_courses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connections_friend_idx" ON "connections" USING btree ("friend_id");--> statement-breakpoint
CREATE INDEX "profile_courses_key_idx" ON "profile_courses" USING btree ("course_key");