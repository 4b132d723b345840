CREATE TABLE "media" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"content_hash" text,
	"duration" double precision,
	"has_audio" boolean,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transcriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"media_id" text NOT NULL,
	"content_hash" text NOT NULL,
	"file_name" text NOT NULL,
	"speaker_labels" boolean NOT NULL,
	"source_language" text DEFAULT 'auto' NOT NULL,
	"language" text,
	"status" text NOT NULL,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"cached_from" text,
	"cues" jsonb,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "transcription_credits_per_minute" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "speaker_labels_credits_per_minute" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcriptions" ADD CONSTRAINT "transcriptions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcriptions" ADD CONSTRAINT "transcriptions_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_ws_created_idx" ON "media" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "media_ws_hash_idx" ON "media" USING btree ("workspace_id","content_hash");--> statement-breakpoint
CREATE INDEX "transcriptions_ws_created_idx" ON "transcriptions" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "transcriptions_ws_hash_idx" ON "transcriptions" USING btree ("workspace_id","content_hash","status");