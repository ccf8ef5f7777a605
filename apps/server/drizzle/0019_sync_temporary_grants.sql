CREATE TABLE "sync_temporary_grants" (
	"guild_id" text NOT NULL,
	"kind" text NOT NULL,
	"target_id" text NOT NULL,
	"role_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sync_temporary_grants_guild_id_kind_target_id_role_id_pk" PRIMARY KEY("guild_id","kind","target_id","role_id")
);
