ALTER TABLE "plans" ADD COLUMN "submission_retention_hours" double precision DEFAULT 720 NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "expired_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "submissions_unexpired_finished_idx" ON "submissions" USING btree ("finished_at") WHERE "submissions"."expired_at" is null;