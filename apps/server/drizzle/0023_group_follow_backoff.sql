ALTER TABLE "guild_sync_state" ADD COLUMN "follow_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "guild_sync_state" ADD COLUMN "follow_error" text;--> statement-breakpoint
ALTER TABLE "guild_sync_state" ADD COLUMN "follow_retry_at" timestamp with time zone;