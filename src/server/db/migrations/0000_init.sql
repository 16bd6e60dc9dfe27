CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"mobile" text,
	"email" text,
	"password_hash" text,
	"nickname" text DEFAULT '' NOT NULL,
	"avatar_key" text,
	"role" text DEFAULT 'user' NOT NULL,
	"wechat_unionid" text,
	"wechat_openid" text,
	"wechat_nickname" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone,
	CONSTRAINT "accounts_mobile_unique" UNIQUE("mobile"),
	CONSTRAINT "accounts_email_unique" UNIQUE("email"),
	CONSTRAINT "accounts_wechat_unionid_unique" UNIQUE("wechat_unionid"),
	CONSTRAINT "accounts_wechat_openid_unique" UNIQUE("wechat_openid"),
	CONSTRAINT "accounts_role_check" CHECK ("accounts"."role" in ('user', 'editor', 'admin')),
	CONSTRAINT "accounts_email_lower_check" CHECK ("accounts"."email" = lower("accounts"."email"))
);
--> statement-breakpoint
CREATE TABLE "one_time_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	CONSTRAINT "one_time_codes_channel_check" CHECK ("one_time_codes"."channel" in ('sms', 'email')),
	CONSTRAINT "one_time_codes_purpose_check" CHECK ("one_time_codes"."purpose" in ('login', 'register', 'reset', 'bind'))
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_agent" text,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "wechat_states" (
	"id" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"account_id" integer,
	"redirect" text DEFAULT '/' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wechat_states_mode_check" CHECK ("wechat_states"."mode" in ('login', 'bind'))
);
--> statement-breakpoint
CREATE TABLE "album_fonts" (
	"album_id" integer NOT NULL,
	"family_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "album_fonts_album_id_family_id_pk" PRIMARY KEY("album_id","family_id")
);
--> statement-breakpoint
CREATE TABLE "albums" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"description_html" text DEFAULT '' NOT NULL,
	"cover_key" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "albums_status_check" CHECK ("albums"."status" in ('draft', 'published'))
);
--> statement-breakpoint
CREATE TABLE "cases" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"client" text,
	"summary" text DEFAULT '' NOT NULL,
	"body_html" text DEFAULT '' NOT NULL,
	"cover_key" text,
	"family_id" integer,
	"status" text DEFAULT 'draft' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "cases_status_check" CHECK ("cases"."status" in ('draft', 'published'))
);
--> statement-breakpoint
CREATE TABLE "collection_fonts" (
	"collection_id" integer NOT NULL,
	"family_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "collection_fonts_collection_id_family_id_pk" PRIMARY KEY("collection_id","family_id")
);
--> statement-breakpoint
CREATE TABLE "collections" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"description_html" text DEFAULT '' NOT NULL,
	"cover_key" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "collections_status_check" CHECK ("collections"."status" in ('draft', 'published'))
);
--> statement-breakpoint
CREATE TABLE "article_tags" (
	"article_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "article_tags_article_id_tag_id_pk" PRIMARY KEY("article_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "articles" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"slug" text,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"body_html" text DEFAULT '' NOT NULL,
	"cover_key" text,
	"author" text,
	"source" text,
	"tag_id" integer,
	"status" text DEFAULT 'draft' NOT NULL,
	"published_at" timestamp with time zone,
	"views" integer DEFAULT 0 NOT NULL,
	"video_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "articles_slug_unique" UNIQUE("slug"),
	CONSTRAINT "articles_kind_check" CHECK ("articles"."kind" in ('news', 'baike', 'zixun')),
	CONSTRAINT "articles_status_check" CHECK ("articles"."status" in ('draft', 'published'))
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tags_kind_name_unique" UNIQUE("kind","name")
);
--> statement-breakpoint
CREATE TABLE "font_dicts" (
	"id" serial PRIMARY KEY NOT NULL,
	"dict_key" text NOT NULL,
	"dict_number" text NOT NULL,
	"label" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "font_dicts_key_number_unique" UNIQUE("dict_key","dict_number")
);
--> statement-breakpoint
CREATE TABLE "font_families" (
	"id" serial PRIMARY KEY NOT NULL,
	"gno" text NOT NULL,
	"name_zh" text NOT NULL,
	"name_en" text NOT NULL,
	"category" text NOT NULL,
	"script" text NOT NULL,
	"license" text NOT NULL,
	"license_text" text NOT NULL,
	"commercial_free" boolean DEFAULT false NOT NULL,
	"designer" text,
	"foundry" text,
	"description" text DEFAULT '' NOT NULL,
	"source_package" text,
	"source_version" text,
	"glyph_count" integer DEFAULT 0 NOT NULL,
	"coverage_gb2312" integer DEFAULT 0 NOT NULL,
	"coverage_tongyong" integer DEFAULT 0 NOT NULL,
	"coverage_big5" integer DEFAULT 0 NOT NULL,
	"coverage_latin" integer DEFAULT 0 NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "font_families_gno_unique" UNIQUE("gno")
);
--> statement-breakpoint
CREATE TABLE "fonts" (
	"id" serial PRIMARY KEY NOT NULL,
	"family_id" integer NOT NULL,
	"gno" text NOT NULL,
	"full_name" text NOT NULL,
	"style_name" text NOT NULL,
	"postscript_name" text NOT NULL,
	"weight" integer NOT NULL,
	"italic" boolean DEFAULT false NOT NULL,
	"file_key" text NOT NULL,
	"file_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"glyph_count" integer DEFAULT 0 NOT NULL,
	"coverage_gb2312" integer DEFAULT 0 NOT NULL,
	"coverage_tongyong" integer DEFAULT 0 NOT NULL,
	"coverage_big5" integer DEFAULT 0 NOT NULL,
	"coverage_latin" integer DEFAULT 0 NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fonts_gno_unique" UNIQUE("gno")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"input" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"result" jsonb,
	"error" text,
	"account_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "jobs_status_check" CHECK ("jobs"."status" in ('queued', 'running', 'done', 'failed')),
	CONSTRAINT "jobs_progress_check" CHECK ("jobs"."progress" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "ads" (
	"id" serial PRIMARY KEY NOT NULL,
	"position" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"image_key" text,
	"link_url" text,
	"sort" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "columns" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"path" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contribute_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"content_html" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "friend_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"logo_key" text,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "keywords" (
	"id" serial PRIMARY KEY NOT NULL,
	"word" text NOT NULL,
	"weight" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "keywords_word_unique" UNIQUE("word")
);
--> statement-breakpoint
CREATE TABLE "message_board" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"contact" text NOT NULL,
	"content" text NOT NULL,
	"ip" text,
	"account_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"body_html" text DEFAULT '' NOT NULL,
	"cover_key" text,
	"link_url" text,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"status" text DEFAULT 'draft' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "promotions_status_check" CHECK ("promotions"."status" in ('draft', 'published'))
);
--> statement-breakpoint
CREATE TABLE "submission_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"status" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"actor_account_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submission_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"kind" text NOT NULL,
	"file_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"uid" text DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" integer NOT NULL,
	"font_name" text NOT NULL,
	"designer" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"license" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"file_key" text,
	"image_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"model" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "submissions_uid_unique" UNIQUE("uid"),
	CONSTRAINT "submissions_status_check" CHECK ("submissions"."status" in ('draft', 'submitted', 'reviewing', 'needs_revision', 'approved', 'rejected', 'published'))
);
--> statement-breakpoint
CREATE TABLE "download_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer,
	"font_id" integer,
	"family_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "favorite_albums" (
	"account_id" integer NOT NULL,
	"album_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorite_albums_account_id_album_id_pk" PRIMARY KEY("account_id","album_id")
);
--> statement-breakpoint
CREATE TABLE "favorite_articles" (
	"account_id" integer NOT NULL,
	"article_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorite_articles_account_id_article_id_pk" PRIMARY KEY("account_id","article_id")
);
--> statement-breakpoint
CREATE TABLE "favorite_fonts" (
	"account_id" integer NOT NULL,
	"family_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorite_fonts_account_id_family_id_pk" PRIMARY KEY("account_id","family_id")
);
--> statement-breakpoint
CREATE TABLE "favorite_group_fonts" (
	"group_id" integer NOT NULL,
	"family_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorite_group_fonts_group_id_family_id_pk" PRIMARY KEY("group_id","family_id")
);
--> statement-breakpoint
CREATE TABLE "favorite_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wechat_states" ADD CONSTRAINT "wechat_states_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "album_fonts" ADD CONSTRAINT "album_fonts_album_id_albums_id_fk" FOREIGN KEY ("album_id") REFERENCES "public"."albums"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "album_fonts" ADD CONSTRAINT "album_fonts_family_id_font_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."font_families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_family_id_font_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."font_families"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_fonts" ADD CONSTRAINT "collection_fonts_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_fonts" ADD CONSTRAINT "collection_fonts_family_id_font_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."font_families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_tags" ADD CONSTRAINT "article_tags_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_tags" ADD CONSTRAINT "article_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fonts" ADD CONSTRAINT "fonts_family_id_font_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."font_families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_board" ADD CONSTRAINT "message_board_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_events" ADD CONSTRAINT "submission_events_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_events" ADD CONSTRAINT "submission_events_actor_account_id_accounts_id_fk" FOREIGN KEY ("actor_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_files" ADD CONSTRAINT "submission_files_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_history" ADD CONSTRAINT "download_history_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_history" ADD CONSTRAINT "download_history_font_id_fonts_id_fk" FOREIGN KEY ("font_id") REFERENCES "public"."fonts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_history" ADD CONSTRAINT "download_history_family_id_font_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."font_families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorite_albums" ADD CONSTRAINT "favorite_albums_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorite_albums" ADD CONSTRAINT "favorite_albums_album_id_albums_id_fk" FOREIGN KEY ("album_id") REFERENCES "public"."albums"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorite_articles" ADD CONSTRAINT "favorite_articles_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorite_articles" ADD CONSTRAINT "favorite_articles_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorite_fonts" ADD CONSTRAINT "favorite_fonts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorite_fonts" ADD CONSTRAINT "favorite_fonts_family_id_font_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."font_families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorite_group_fonts" ADD CONSTRAINT "favorite_group_fonts_group_id_favorite_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."favorite_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorite_group_fonts" ADD CONSTRAINT "favorite_group_fonts_family_id_font_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."font_families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorite_groups" ADD CONSTRAINT "favorite_groups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "one_time_codes_target_idx" ON "one_time_codes" USING btree ("channel","target","purpose","created_at");--> statement-breakpoint
CREATE INDEX "one_time_codes_ip_idx" ON "one_time_codes" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "sessions_account_id_idx" ON "sessions" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "wechat_states_expires_at_idx" ON "wechat_states" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "album_fonts_family_id_idx" ON "album_fonts" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "albums_status_sort_idx" ON "albums" USING btree ("status","sort","published_at");--> statement-breakpoint
CREATE INDEX "cases_status_sort_idx" ON "cases" USING btree ("status","sort","published_at");--> statement-breakpoint
CREATE INDEX "cases_family_id_idx" ON "cases" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "collection_fonts_family_id_idx" ON "collection_fonts" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "collections_status_sort_idx" ON "collections" USING btree ("status","sort","published_at");--> statement-breakpoint
CREATE INDEX "article_tags_tag_id_idx" ON "article_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "articles_kind_status_published_idx" ON "articles" USING btree ("kind","status","published_at");--> statement-breakpoint
CREATE INDEX "articles_tag_id_idx" ON "articles" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "font_families_category_idx" ON "font_families" USING btree ("category");--> statement-breakpoint
CREATE INDEX "font_families_script_idx" ON "font_families" USING btree ("script");--> statement-breakpoint
CREATE INDEX "fonts_family_id_idx" ON "fonts" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "jobs_status_created_idx" ON "jobs" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "jobs_expires_at_idx" ON "jobs" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "jobs_account_id_idx" ON "jobs" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "ads_position_sort_idx" ON "ads" USING btree ("position","sort");--> statement-breakpoint
CREATE INDEX "columns_type_sort_idx" ON "columns" USING btree ("type","sort");--> statement-breakpoint
CREATE INDEX "contribute_templates_type_idx" ON "contribute_templates" USING btree ("type");--> statement-breakpoint
CREATE INDEX "friend_links_sort_idx" ON "friend_links" USING btree ("sort");--> statement-breakpoint
CREATE INDEX "message_board_created_at_idx" ON "message_board" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "promotions_status_sort_idx" ON "promotions" USING btree ("status","sort");--> statement-breakpoint
CREATE INDEX "submission_events_submission_created_idx" ON "submission_events" USING btree ("submission_id","created_at");--> statement-breakpoint
CREATE INDEX "submission_files_submission_kind_idx" ON "submission_files" USING btree ("submission_id","kind");--> statement-breakpoint
CREATE INDEX "submissions_account_updated_idx" ON "submissions" USING btree ("account_id","updated_at");--> statement-breakpoint
CREATE INDEX "submissions_status_updated_idx" ON "submissions" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "download_history_account_created_idx" ON "download_history" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "download_history_family_id_idx" ON "download_history" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "favorite_albums_album_id_idx" ON "favorite_albums" USING btree ("album_id");--> statement-breakpoint
CREATE INDEX "favorite_articles_article_id_idx" ON "favorite_articles" USING btree ("article_id");--> statement-breakpoint
CREATE INDEX "favorite_fonts_family_id_idx" ON "favorite_fonts" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "favorite_group_fonts_family_id_idx" ON "favorite_group_fonts" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "favorite_groups_account_id_idx" ON "favorite_groups" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "notifications_account_type_created_idx" ON "notifications" USING btree ("account_id","type","created_at");