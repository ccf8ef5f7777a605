CREATE TABLE "guild_permissions" (
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"permissions" text[] NOT NULL,
	"granted_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guild_permissions_guild_id_user_id_pk" PRIMARY KEY("guild_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "world_data_cache" (
	"world_id" uuid PRIMARY KEY NOT NULL,
	"body" text NOT NULL,
	"settings_stamp" text NOT NULL,
	"generated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worlds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"guild_id" text NOT NULL,
	"name" text NOT NULL,
	"locked" boolean DEFAULT true NOT NULL,
	"compression" boolean DEFAULT false NOT NULL,
	"json_mode" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"include_discord_data" boolean DEFAULT true NOT NULL,
	"include_group_data" boolean DEFAULT false NOT NULL,
	"custom_data" text DEFAULT '' NOT NULL,
	"discord_encode_roles" text[] DEFAULT '{}' NOT NULL,
	"discord_always_encode_roles" text[] DEFAULT '{}' NOT NULL,
	"group_encode_roles" text[] DEFAULT '{}' NOT NULL,
	"group_always_encode_roles" text[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "world_data_cache" ADD CONSTRAINT "world_data_cache_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "worlds_guild_idx" ON "worlds" USING btree ("guild_id","created_at");