CREATE TABLE "clips" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"submission_id" text NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"rating" double precision NOT NULL,
	"start_time" double precision NOT NULL,
	"end_time" double precision NOT NULL,
	"language" text NOT NULL,
	"signals" jsonb,
	"preview_key" text,
	"edit_id" text,
	"has_template_applied" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "edits" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"clip_id" text,
	"hash" text NOT NULL,
	"spec" jsonb NOT NULL,
	"template_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"video_id" text NOT NULL,
	"status" text NOT NULL,
	"timeframe_start" double precision NOT NULL,
	"timeframe_end" double precision NOT NULL,
	"strategy_id" text,
	"template_id" text,
	"source_language" text DEFAULT 'auto' NOT NULL,
	"language" text,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"clips_count" integer DEFAULT 0 NOT NULL,
	"waiting_reason" text,
	"waiting_until" timestamp with time zone,
	"source_key" text,
	"transcript" jsonb,
	"analysis" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"builtin" boolean DEFAULT false NOT NULL,
	"config" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clips" ADD CONSTRAINT "clips_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clips" ADD CONSTRAINT "clips_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edits" ADD CONSTRAINT "edits_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "clips_submission_position_uq" ON "clips" USING btree ("submission_id","position");--> statement-breakpoint
CREATE INDEX "clips_ws_idx" ON "clips" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "edits_ws_idx" ON "edits" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "edits_hash_idx" ON "edits" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "submissions_ws_created_idx" ON "submissions" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "submissions_status_created_idx" ON "submissions" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "submissions_video_idx" ON "submissions" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "templates_ws_idx" ON "templates" USING btree ("workspace_id","kind");