CREATE TABLE "api_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"api_key_id" uuid,
	"user_id" text,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "api_log_guild_idx" ON "api_log" USING btree ("guild_id","id");--> statement-breakpoint
CREATE INDEX "api_log_created_idx" ON "api_log" USING btree ("created_at");