CREATE TABLE "discord_log_config" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"channel_id" text,
	"event_types" text[] DEFAULT '{}' NOT NULL,
	"problem" text,
	"problem_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discord_log_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"audit_id" bigint NOT NULL,
	"event_type" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "discord_log_outbox_due_idx" ON "discord_log_outbox" USING btree ("next_attempt_at");