CREATE TABLE "group_link_codes" (
	"guild_id" text NOT NULL,
	"group_id" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_link_codes_guild_id_group_id_pk" PRIMARY KEY("guild_id","group_id")
);
--> statement-breakpoint
ALTER TABLE "guild_groups" ADD COLUMN "enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "guild_groups" ADD COLUMN "auto_kick" boolean DEFAULT false NOT NULL;