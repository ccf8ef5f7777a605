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
ALTER TABLE "guild_settings" ADD COLUMN "retired_auto_roles" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_temporary_grants" ADD COLUMN "reason" text DEFAULT 'GrantRoleTemporary' NOT NULL;