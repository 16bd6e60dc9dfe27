CREATE TABLE "editor_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer,
	"action" text NOT NULL,
	"target" text DEFAULT '' NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "editor_actions" ADD CONSTRAINT "editor_actions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "editor_actions_created_idx" ON "editor_actions" USING btree ("created_at");