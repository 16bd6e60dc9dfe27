CREATE SEQUENCE "public"."font_group_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "font_group_fonts" (
	"kind" text NOT NULL,
	"group_id" integer NOT NULL,
	"family_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "font_group_fonts_kind_group_id_family_id_pk" PRIMARY KEY("kind","group_id","family_id")
);
--> statement-breakpoint
CREATE TABLE "font_groups" (
	"kind" text NOT NULL,
	"id" integer DEFAULT nextval('font_group_id_seq') NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"description_html" text DEFAULT '' NOT NULL,
	"cover_key" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "font_groups_kind_id_pk" PRIMARY KEY("kind","id"),
	CONSTRAINT "font_groups_kind_check" CHECK ("font_groups"."kind" in ('album', 'heji')),
	CONSTRAINT "font_groups_status_check" CHECK ("font_groups"."status" in ('draft', 'published'))
);
--> statement-breakpoint
CREATE TABLE "favorites" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"target" text NOT NULL,
	"family_id" integer,
	"group_kind" text,
	"group_id" integer,
	"article_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorites_once" UNIQUE NULLS NOT DISTINCT("account_id","target","family_id","group_kind","group_id","article_id"),
	CONSTRAINT "favorites_target_check" CHECK (("favorites"."target" = 'font' and "favorites"."family_id" is not null and "favorites"."group_id" is null and "favorites"."article_id" is null)
        or ("favorites"."target" = 'group' and "favorites"."group_kind" is not null and "favorites"."group_id" is not null and "favorites"."family_id" is null and "favorites"."article_id" is null)
        or ("favorites"."target" = 'article' and "favorites"."article_id" is not null and "favorites"."family_id" is null and "favorites"."group_id" is null))
);
--> statement-breakpoint
ALTER TABLE "font_group_fonts" ADD CONSTRAINT "font_group_fonts_family_id_font_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."font_families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "font_group_fonts" ADD CONSTRAINT "font_group_fonts_kind_group_id_font_groups_kind_id_fk" FOREIGN KEY ("kind","group_id") REFERENCES "public"."font_groups"("kind","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_family_id_font_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."font_families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_group_kind_group_id_font_groups_kind_id_fk" FOREIGN KEY ("group_kind","group_id") REFERENCES "public"."font_groups"("kind","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "font_group_fonts_family_id_idx" ON "font_group_fonts" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "font_groups_kind_status_sort_idx" ON "font_groups" USING btree ("kind","status","sort","published_at");--> statement-breakpoint
CREATE INDEX "favorites_account_target_idx" ON "favorites" USING btree ("account_id","target","created_at");--> statement-breakpoint
CREATE INDEX "favorites_family_id_idx" ON "favorites" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "favorites_article_id_idx" ON "favorites" USING btree ("article_id");--> statement-breakpoint
INSERT INTO "font_groups" ("kind", "id", "title", "summary", "description_html", "cover_key", "status", "sort", "created_at", "published_at")
  SELECT 'album', "id", "title", "summary", "description_html", "cover_key", "status", "sort", "created_at", "published_at" FROM "albums";--> statement-breakpoint
INSERT INTO "font_groups" ("kind", "id", "title", "summary", "description_html", "cover_key", "status", "sort", "created_at", "published_at")
  SELECT 'heji', "id", "title", "summary", "description_html", "cover_key", "status", "sort", "created_at", "published_at" FROM "collections";--> statement-breakpoint
INSERT INTO "font_group_fonts" ("kind", "group_id", "family_id", "sort") SELECT 'album', "album_id", "family_id", "sort" FROM "album_fonts";--> statement-breakpoint
INSERT INTO "font_group_fonts" ("kind", "group_id", "family_id", "sort") SELECT 'heji', "collection_id", "family_id", "sort" FROM "collection_fonts";--> statement-breakpoint
INSERT INTO "favorites" ("account_id", "target", "family_id", "created_at") SELECT "account_id", 'font', "family_id", "created_at" FROM "favorite_fonts";--> statement-breakpoint
INSERT INTO "favorites" ("account_id", "target", "group_kind", "group_id", "created_at") SELECT "account_id", 'group', 'album', "album_id", "created_at" FROM "favorite_albums";--> statement-breakpoint
INSERT INTO "favorites" ("account_id", "target", "article_id", "created_at") SELECT "account_id", 'article', "article_id", "created_at" FROM "favorite_articles";--> statement-breakpoint
SELECT setval('font_group_id_seq', greatest((SELECT coalesce(max("id"), 0) FROM "albums"), (SELECT coalesce(max("id"), 0) FROM "collections")) + 1, false);
