CREATE TABLE "image_blobs" (
	"hash" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "image_previews" (
	"hash" text NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "image_previews_hash_size_pk" PRIMARY KEY("hash","size")
);
--> statement-breakpoint
CREATE TABLE "world_atlas_state" (
	"world_id" uuid PRIMARY KEY NOT NULL,
	"variation" integer,
	"metadata" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_generation" timestamp with time zone,
	"status" text DEFAULT 'idle' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"error" text,
	"requested_at" timestamp with time zone,
	"requested_by" text
);
--> statement-breakpoint
CREATE TABLE "world_atlases" (
	"world_id" uuid NOT NULL,
	"variation" integer NOT NULL,
	"atlas_index" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"hash" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "world_atlases_world_id_variation_atlas_index_pk" PRIMARY KEY("world_id","variation","atlas_index")
);
--> statement-breakpoint
CREATE TABLE "world_image_slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"world_id" uuid NOT NULL,
	"slot_id" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"image_id" uuid,
	"max_dimension" integer DEFAULT 512 NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "world_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"guild_id" text NOT NULL,
	"name" text NOT NULL,
	"image_hash" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "image_previews" ADD CONSTRAINT "image_previews_hash_image_blobs_hash_fk" FOREIGN KEY ("hash") REFERENCES "public"."image_blobs"("hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_atlas_state" ADD CONSTRAINT "world_atlas_state_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_atlases" ADD CONSTRAINT "world_atlases_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_image_slots" ADD CONSTRAINT "world_image_slots_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_image_slots" ADD CONSTRAINT "world_image_slots_image_id_world_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."world_images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_images" ADD CONSTRAINT "world_images_image_hash_image_blobs_hash_fk" FOREIGN KEY ("image_hash") REFERENCES "public"."image_blobs"("hash") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "world_image_slots_world_slot_idx" ON "world_image_slots" USING btree ("world_id","slot_id");--> statement-breakpoint
CREATE INDEX "world_images_guild_idx" ON "world_images" USING btree ("guild_id","created_at");