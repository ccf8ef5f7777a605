CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "guild_member_sync" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"member_count" integer DEFAULT 0 NOT NULL,
	"filled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guild_members" (
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"username" text NOT NULL,
	"global_name" text,
	"nickname" text,
	"avatar" text,
	"guild_avatar" boolean DEFAULT false NOT NULL,
	"bot" boolean DEFAULT false NOT NULL,
	"role_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"joined_at" timestamp with time zone,
	"left_at" timestamp with time zone,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guild_members_guild_id_user_id_pk" PRIMARY KEY("guild_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "process_instances" (
	"container" text PRIMARY KEY NOT NULL,
	"api" text NOT NULL,
	"roles" text[] NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduled_tasks" (
	"api" text NOT NULL,
	"container" text NOT NULL,
	"task_name" text NOT NULL,
	"timer_seconds" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"run_requested_at" timestamp with time zone,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheduled_tasks_api_container_task_name_pk" PRIMARY KEY("api","container","task_name")
);
--> statement-breakpoint
CREATE INDEX "guild_members_user_idx" ON "guild_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "guild_members_username_prefix_idx" ON "guild_members" USING btree ("guild_id",lower("username") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "guild_members_global_name_prefix_idx" ON "guild_members" USING btree ("guild_id",lower("global_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "guild_members_nickname_prefix_idx" ON "guild_members" USING btree ("guild_id",lower("nickname") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "guild_members_username_trgm_idx" ON "guild_members" USING gin (lower("username") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "guild_members_global_name_trgm_idx" ON "guild_members" USING gin (lower("global_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "guild_members_nickname_trgm_idx" ON "guild_members" USING gin (lower("nickname") gin_trgm_ops);