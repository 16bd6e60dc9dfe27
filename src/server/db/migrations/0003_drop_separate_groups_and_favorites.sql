DROP TABLE "album_fonts" CASCADE;--> statement-breakpoint
DROP TABLE "albums" CASCADE;--> statement-breakpoint
DROP TABLE "collection_fonts" CASCADE;--> statement-breakpoint
DROP TABLE "collections" CASCADE;--> statement-breakpoint
DROP TABLE "favorite_albums" CASCADE;--> statement-breakpoint
DROP TABLE "favorite_articles" CASCADE;--> statement-breakpoint
DROP TABLE "favorite_fonts" CASCADE;