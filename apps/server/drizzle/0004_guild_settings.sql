CREATE TABLE "guild_settings" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"age_verified_role_id" text,
	"age_verified_plus18_role_id" text,
	"linked_role_id" text,
	"contact_email" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "guest_roles" ALTER COLUMN "main_role_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "guest_roles" ALTER COLUMN "guest_role_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "guest_roles" ALTER COLUMN "count" SET DEFAULT 0;