ALTER TABLE "clips" ADD COLUMN "score_details" jsonb;--> statement-breakpoint
ALTER TABLE "clips" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "clips" ADD COLUMN "matched" jsonb;