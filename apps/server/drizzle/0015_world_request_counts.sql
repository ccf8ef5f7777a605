CREATE TABLE "world_request_counts" (
	"world_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "world_request_counts_world_id_hour_pk" PRIMARY KEY("world_id","hour")
);
--> statement-breakpoint
ALTER TABLE "world_request_counts" ADD CONSTRAINT "world_request_counts_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "world_request_counts_hour_idx" ON "world_request_counts" USING btree ("hour");