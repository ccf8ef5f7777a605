ALTER TABLE "guild_groups" ADD COLUMN "vrchat_account" text;--> statement-breakpoint
CREATE INDEX "guild_groups_group_idx" ON "guild_groups" USING btree ("group_id");