CREATE TABLE "videos" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"source" text NOT NULL,
	"status" text NOT NULL,
	"source_url" text,
	"media_url" text,
	"platform" text NOT NULL,
	"title" text NOT NULL,
	"author" text NOT NULL,
	"duration" double precision DEFAULT 0 NOT NULL,
	"width" integer DEFAULT 0 NOT NULL,
	"height" integer DEFAULT 0 NOT NULL,
	"has_audio" boolean DEFAULT false NOT NULL,
	"storage_key" text,
	"file_name" text,
	"file_size" bigint,
	"content_type" text,
	"upload_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "videos_ws_created_idx" ON "videos" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "videos_ws_source_url_uq" ON "videos" USING btree ("workspace_id","source_url");