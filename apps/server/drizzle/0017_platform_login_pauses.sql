CREATE TABLE "platform_login_pauses" (
	"name" text PRIMARY KEY NOT NULL,
	"credentials" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"failures" integer NOT NULL,
	"last_error" text NOT NULL
);
