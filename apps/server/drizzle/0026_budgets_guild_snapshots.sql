CREATE TABLE "guild_snapshot_shards" (
	"shard_id" integer NOT NULL,
	"shard_count" integer NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guild_snapshot_shards_shard_count_shard_id_pk" PRIMARY KEY("shard_count","shard_id")
);
--> statement-breakpoint
CREATE TABLE "guild_snapshots" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"icon_url" text,
	"owner_id" text NOT NULL,
	"roles" jsonb NOT NULL,
	"bot_member" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_budgets" (
	"key" text PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"refilled_at" timestamp with time zone NOT NULL,
	"paused_until" timestamp with time zone
);
