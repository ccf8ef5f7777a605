CREATE TABLE "group_role_cache" (
	"group_id" text PRIMARY KEY NOT NULL,
	"roles" jsonb NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stale_since" timestamp with time zone
);
