CREATE TABLE "captcha_puzzles" (
	"token" text PRIMARY KEY NOT NULL,
	"x" integer NOT NULL,
	"secret_key" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"round" integer NOT NULL,
	"rounds" integer NOT NULL,
	"failure_keys" text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "captcha_verifications" (
	"value" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rounds" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL
);
