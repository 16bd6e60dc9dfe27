ALTER TABLE "submissions" DROP COLUMN "file_key";--> statement-breakpoint
ALTER TABLE "submissions" DROP COLUMN "image_keys";--> statement-breakpoint
ALTER TABLE "submissions" DROP COLUMN "model";