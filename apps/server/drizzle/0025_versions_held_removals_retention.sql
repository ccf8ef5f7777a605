CREATE TABLE "link_change_summaries" (
	"discord_user_id" text PRIMARY KEY NOT NULL,
	"changes" integer DEFAULT 0 NOT NULL,
	"last_changed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sync_held_removals" (
	"guild_id" text NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"vrc_user_id" text,
	"discord_user_id" text,
	"role_id" text,
	"reason" text NOT NULL,
	"target_name" text NOT NULL,
	"role_name" text,
	"held_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decision" text,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	CONSTRAINT "sync_held_removals_guild_id_key_pk" PRIMARY KEY("guild_id","key")
);
--> statement-breakpoint
DROP INDEX "guild_members_username_trgm_idx";--> statement-breakpoint
DROP INDEX "guild_members_global_name_trgm_idx";--> statement-breakpoint
DROP INDEX "guild_members_nickname_trgm_idx";--> statement-breakpoint
DROP INDEX "audit_guild_idx";--> statement-breakpoint
ALTER TABLE "guild_settings" ADD COLUMN "retired_auto_roles" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "guild_settings" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "guest_roles" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "discord_group_mappings" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "group_discord_mappings" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "guild_sync_state" ADD COLUMN "followed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_temporary_grants" ADD COLUMN "reason" text DEFAULT 'GrantRoleTemporary' NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "link_events_user_idx" ON "link_events" USING btree ("discord_user_id");--> statement-breakpoint
CREATE INDEX "link_events_created_idx" ON "link_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "guild_members_guild_username_trgm_idx" ON "guild_members" USING gin ("guild_id",lower("username") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "guild_members_guild_global_name_trgm_idx" ON "guild_members" USING gin ("guild_id",lower("global_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "guild_members_guild_nickname_trgm_idx" ON "guild_members" USING gin ("guild_id",lower("nickname") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audit_guild_idx" ON "audit_log" USING btree ("guild_id","created_at","id");