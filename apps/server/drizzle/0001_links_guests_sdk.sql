CREATE TABLE "guest_roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"guild_id" text NOT NULL,
	"main_role_id" text NOT NULL,
	"guest_role_id" text NOT NULL,
	"count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"guild_id" text NOT NULL,
	"host_user_id" text NOT NULL,
	"guest_role_id" text NOT NULL,
	"guest_discord_id" text,
	"guest_username" text,
	"guest_vrc_id" text,
	"guest_vrc_name" text,
	"guest_profile_pic_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guild_groups" (
	"guild_id" text NOT NULL,
	"group_id" text NOT NULL,
	"name" text NOT NULL,
	"icon_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_invites" (
	"discord_user_id" text NOT NULL,
	"group_id" text NOT NULL,
	"vrc_user_id" text NOT NULL,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_invites_discord_user_id_group_id_pk" PRIMARY KEY("discord_user_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "link_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"discord_user_id" text NOT NULL,
	"vrc_user_id" text,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "verification_codes" (
	"discord_user_id" text NOT NULL,
	"vrc_user_id" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_codes_discord_user_id_vrc_user_id_pk" PRIMARY KEY("discord_user_id","vrc_user_id")
);
--> statement-breakpoint
CREATE TABLE "vrchat_links" (
	"discord_user_id" text PRIMARY KEY NOT NULL,
	"vrc_user_id" text NOT NULL,
	"vrchat_name" text NOT NULL,
	"is_verified" boolean DEFAULT false NOT NULL,
	"age_verification" text DEFAULT 'Unverified' NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verified_at" timestamp with time zone,
	"refreshed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sdk_login_requests" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"approved_by" text,
	"approved_at" timestamp with time zone,
	"redeemed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "guest_roles_guild_idx" ON "guest_roles" USING btree ("guild_id");--> statement-breakpoint
CREATE INDEX "guests_host_idx" ON "guests" USING btree ("guild_id","host_user_id");--> statement-breakpoint
CREATE INDEX "guild_groups_guild_idx" ON "guild_groups" USING btree ("guild_id");--> statement-breakpoint
CREATE INDEX "guild_groups_pk" ON "guild_groups" USING btree ("guild_id","group_id");--> statement-breakpoint
CREATE INDEX "link_events_pending_idx" ON "link_events" USING btree ("processed_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "vrchat_links_vrc_user_uq" ON "vrchat_links" USING btree ("vrc_user_id");