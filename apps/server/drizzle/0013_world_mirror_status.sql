CREATE TABLE "world_mirror_status" (
	"remote" text PRIMARY KEY NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_commit" text,
	"last_commit_at" timestamp with time zone,
	"worlds" integer DEFAULT 0 NOT NULL,
	"worlds_not_built" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL
);
