ALTER TABLE "submissions" ADD COLUMN "stage_progress" double precision;--> statement-breakpoint
ALTER TABLE "transcriptions" ADD COLUMN "stage" text;--> statement-breakpoint
ALTER TABLE "transcriptions" ADD COLUMN "stage_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transcriptions" ADD COLUMN "media_seconds" double precision;