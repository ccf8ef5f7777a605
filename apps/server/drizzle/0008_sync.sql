CREATE TABLE "discord_group_mappings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"guild_id" text NOT NULL,
	"discord_role_id" text,
	"group_role_id" text,
	"action" text DEFAULT 'None' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_discord_mappings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"guild_id" text NOT NULL,
	"group_role_id" text,
	"discord_role_id" text,
	"action" text DEFAULT 'None' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guild_sync_state" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_result" jsonb,
	"held_removals" jsonb,
	"held_at" timestamp with time zone,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"group_audit_cursor" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "discord_group_mappings_guild_idx" ON "discord_group_mappings" USING btree ("guild_id");--> statement-breakpoint
CREATE INDEX "group_discord_mappings_guild_idx" ON "group_discord_mappings" USING btree ("guild_id");