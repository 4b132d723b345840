ALTER TABLE "edits" ADD COLUMN "parent_edit_id" text;--> statement-breakpoint
ALTER TABLE "edits" ADD COLUMN "root_edit_id" text;--> statement-breakpoint
ALTER TABLE "edits" ADD COLUMN "words" jsonb;--> statement-breakpoint
CREATE INDEX "edits_clip_idx" ON "edits" USING btree ("clip_id");--> statement-breakpoint
CREATE INDEX "edits_root_idx" ON "edits" USING btree ("root_edit_id");