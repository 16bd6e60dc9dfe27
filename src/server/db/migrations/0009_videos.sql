CREATE TABLE "videos" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"file_key" text NOT NULL,
	"poster_key" text NOT NULL,
	"captions_key" text,
	"duration_ms" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"mime" text NOT NULL,
	"size" bigint NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"published_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "videos_slug_unique" UNIQUE("slug"),
	CONSTRAINT "videos_status_check" CHECK ("videos"."status" in ('draft', 'published')),
	CONSTRAINT "videos_mime_check" CHECK ("videos"."mime" in ('video/mp4', 'video/webm')),
	CONSTRAINT "videos_duration_check" CHECK ("videos"."duration_ms" > 0)
);
--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "videos_status_published_idx" ON "videos" USING btree ("status","published_at");