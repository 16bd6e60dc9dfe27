CREATE TABLE "custom_font_request_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"action" text NOT NULL,
	"stage" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"quote" text DEFAULT '' NOT NULL,
	"actor_account_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_font_request_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"file_key" text NOT NULL,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_font_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"uid" text DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" integer NOT NULL,
	"organisation" text NOT NULL,
	"contact_name" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"charset" text NOT NULL,
	"custom_count" integer,
	"weights" integer DEFAULT 1 NOT NULL,
	"deadline" text DEFAULT '' NOT NULL,
	"budget" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"stage" text DEFAULT 'new' NOT NULL,
	"quote" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_font_requests_uid_unique" UNIQUE("uid"),
	CONSTRAINT "custom_font_requests_stage_check" CHECK ("custom_font_requests"."stage" in ('new', 'contacted', 'quoted', 'in_progress', 'delivered', 'closed')),
	CONSTRAINT "custom_font_requests_kind_check" CHECK ("custom_font_requests"."kind" in ('brand', 'handwriting', 'restoration', 'other'))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "custom_font_request_events" ADD CONSTRAINT "custom_font_request_events_request_id_custom_font_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."custom_font_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_font_request_events" ADD CONSTRAINT "custom_font_request_events_actor_account_id_accounts_id_fk" FOREIGN KEY ("actor_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_font_request_files" ADD CONSTRAINT "custom_font_request_files_request_id_custom_font_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."custom_font_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_font_requests" ADD CONSTRAINT "custom_font_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custom_font_request_events_request_idx" ON "custom_font_request_events" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE INDEX "custom_font_request_files_request_idx" ON "custom_font_request_files" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "custom_font_requests_account_created_idx" ON "custom_font_requests" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "custom_font_requests_stage_updated_idx" ON "custom_font_requests" USING btree ("stage","updated_at");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('system', 'review', 'service', 'reply', 'announcement'));