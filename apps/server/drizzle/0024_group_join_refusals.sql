CREATE TABLE "group_join_refusals" (
	"group_id" text NOT NULL,
	"vrc_user_id" text NOT NULL,
	"message" text NOT NULL,
	"refused_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_join_refusals_group_id_vrc_user_id_pk" PRIMARY KEY("group_id","vrc_user_id")
);
