CREATE TABLE "message_board_replies" (
	"id" serial PRIMARY KEY NOT NULL,
	"message_id" integer NOT NULL,
	"editor_account_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agreement_signatures" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"version" text NOT NULL,
	"text_sha256" text NOT NULL,
	"legal_name" text NOT NULL,
	"credit_name" text NOT NULL,
	"contact" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"signature_kind" text NOT NULL,
	"signature_key" text,
	"pdf_key" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agreement_signatures_kind_check" CHECK ("agreement_signatures"."signature_kind" in ('drawn', 'typed'))
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "notify_by_email" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "link" text;--> statement-breakpoint
ALTER TABLE "message_board_replies" ADD CONSTRAINT "message_board_replies_message_id_message_board_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."message_board"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_board_replies" ADD CONSTRAINT "message_board_replies_editor_account_id_accounts_id_fk" FOREIGN KEY ("editor_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreement_signatures" ADD CONSTRAINT "agreement_signatures_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_board_replies_message_created_idx" ON "message_board_replies" USING btree ("message_id","created_at");--> statement-breakpoint
CREATE INDEX "agreement_signatures_account_signed_idx" ON "agreement_signatures" USING btree ("account_id","signed_at");--> statement-breakpoint
CREATE INDEX "message_board_account_created_idx" ON "message_board" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("account_id") WHERE "notifications"."read_at" is null;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('system', 'review', 'reply', 'announcement'));