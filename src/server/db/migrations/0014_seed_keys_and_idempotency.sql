CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" integer NOT NULL,
	"content_type" text NOT NULL,
	"body" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "slug" text;--> statement-breakpoint
ALTER TABLE "font_groups" ADD COLUMN "slug" text;--> statement-breakpoint
-- Seeded cases, albums and collections are named by their file (slug), which their cover key has
-- carried so far (covers/<kind>/<slug>-<hash>.webp; editors' own items are covers/<kind>/item-<id>-…).
UPDATE "cases" SET "slug" = substring("cover_key" from '^covers/case/([a-z0-9-]+)-[0-9a-f]{12}\.webp$')
  WHERE "cover_key" ~ '^covers/case/[a-z0-9-]+-[0-9a-f]{12}\.webp$' AND "cover_key" !~ '^covers/case/item-[0-9]+-';--> statement-breakpoint
UPDATE "font_groups" SET "slug" = substring("cover_key" from '^covers/[a-z]+/([a-z0-9-]+)-[0-9a-f]{12}\.webp$')
  WHERE "cover_key" ~ ('^covers/' || "kind" || '/[a-z0-9-]+-[0-9a-f]{12}\.webp$')
    AND "cover_key" !~ '^covers/[a-z]+/item-[0-9]+-';--> statement-breakpoint
-- Nodes that started together over a new database seeded the same items twice or more. The first row of
-- each stays; a reader's favourite of a later copy moves to it (once per reader), then the copies go.
DELETE FROM "favorites" f USING "font_groups" g, "font_groups" copy, "favorites" other
  WHERE f."group_kind" = g."kind" AND f."group_id" = g."id"
    AND copy."kind" = g."kind" AND copy."slug" = g."slug"
    AND other."account_id" = f."account_id" AND other."group_kind" = copy."kind" AND other."group_id" = copy."id"
    AND other."id" < f."id";--> statement-breakpoint
UPDATE "favorites" f SET "group_id" = (
    SELECT min(keep."id") FROM "font_groups" keep WHERE keep."kind" = g."kind" AND keep."slug" = g."slug")
  FROM "font_groups" g
  WHERE f."group_kind" = g."kind" AND f."group_id" = g."id" AND g."slug" IS NOT NULL
    AND EXISTS (SELECT 1 FROM "font_groups" keep WHERE keep."kind" = g."kind" AND keep."slug" = g."slug" AND keep."id" < g."id");--> statement-breakpoint
DELETE FROM "font_groups" a USING "font_groups" b WHERE a."kind" = b."kind" AND a."slug" = b."slug" AND a."id" > b."id";--> statement-breakpoint
DELETE FROM "cases" a USING "cases" b WHERE a."slug" = b."slug" AND a."id" > b."id";--> statement-breakpoint
DELETE FROM "ads" a USING "ads" b WHERE a."position" = b."position" AND a."title" = b."title" AND a."id" > b."id";--> statement-breakpoint
DELETE FROM "columns" a USING "columns" b WHERE a."type" = b."type" AND a."path" = b."path" AND a."id" > b."id";--> statement-breakpoint
DELETE FROM "contribute_templates" a USING "contribute_templates" b
  WHERE a."type" = b."type" AND a."title" = b."title" AND a."id" > b."id";--> statement-breakpoint
DELETE FROM "friend_links" a USING "friend_links" b WHERE a."url" = b."url" AND a."id" > b."id";--> statement-breakpoint
DELETE FROM "promotions" a USING "promotions" b WHERE a."title" = b."title" AND a."id" > b."id";--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_slug_unique" UNIQUE("slug");--> statement-breakpoint
ALTER TABLE "font_groups" ADD CONSTRAINT "font_groups_kind_slug_unique" UNIQUE("kind","slug");--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_position_title_unique" UNIQUE("position","title");--> statement-breakpoint
ALTER TABLE "columns" ADD CONSTRAINT "columns_type_path_unique" UNIQUE("type","path");--> statement-breakpoint
ALTER TABLE "contribute_templates" ADD CONSTRAINT "contribute_templates_type_title_unique" UNIQUE("type","title");--> statement-breakpoint
ALTER TABLE "friend_links" ADD CONSTRAINT "friend_links_url_unique" UNIQUE("url");--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_title_unique" UNIQUE("title");