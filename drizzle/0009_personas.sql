CREATE TABLE "persona_faces" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"photo_key" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"face" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "persona_portraits" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"persona_id" text NOT NULL,
	"chips" jsonb NOT NULL,
	"note" text,
	"face_ids" jsonb NOT NULL,
	"status" text NOT NULL,
	"engine" text NOT NULL,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"version_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "persona_preset_favorites" (
	"workspace_id" text NOT NULL,
	"preset_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "persona_preset_favorites_workspace_id_preset_id_pk" PRIMARY KEY("workspace_id","preset_id")
);
--> statement-breakpoint
CREATE TABLE "persona_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"persona_id" text NOT NULL,
	"image_key" text NOT NULL,
	"image_kind" text NOT NULL,
	"engine" text NOT NULL,
	"chips" jsonb NOT NULL,
	"note" text,
	"face_ids" jsonb NOT NULL,
	"feedback_vote" text,
	"feedback_reason" text,
	"feedback_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "persona_videos" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"persona_id" text NOT NULL,
	"version_id" text NOT NULL,
	"media_id" text NOT NULL,
	"type" text NOT NULL,
	"quality" text NOT NULL,
	"replace" text NOT NULL,
	"engine" text NOT NULL,
	"seconds" double precision NOT NULL,
	"credits" integer NOT NULL,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"output_key" text,
	"edit_id" text,
	"feedback_vote" text,
	"feedback_reason" text,
	"feedback_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "personas" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text,
	"saved" boolean DEFAULT false NOT NULL,
	"image_status" text NOT NULL,
	"chips" jsonb NOT NULL,
	"face_ids" jsonb NOT NULL,
	"current_version_id" text,
	"preset_id" text,
	"portrait_id" text,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "persona_faces" ADD CONSTRAINT "persona_faces_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona_portraits" ADD CONSTRAINT "persona_portraits_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona_portraits" ADD CONSTRAINT "persona_portraits_persona_id_personas_id_fk" FOREIGN KEY ("persona_id") REFERENCES "public"."personas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona_preset_favorites" ADD CONSTRAINT "persona_preset_favorites_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona_versions" ADD CONSTRAINT "persona_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona_versions" ADD CONSTRAINT "persona_versions_persona_id_personas_id_fk" FOREIGN KEY ("persona_id") REFERENCES "public"."personas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona_videos" ADD CONSTRAINT "persona_videos_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona_videos" ADD CONSTRAINT "persona_videos_persona_id_personas_id_fk" FOREIGN KEY ("persona_id") REFERENCES "public"."personas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personas" ADD CONSTRAINT "personas_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "persona_faces_ws_idx" ON "persona_faces" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "persona_portraits_persona_idx" ON "persona_portraits" USING btree ("persona_id","created_at");--> statement-breakpoint
CREATE INDEX "persona_versions_persona_idx" ON "persona_versions" USING btree ("persona_id","created_at");--> statement-breakpoint
CREATE INDEX "persona_videos_persona_idx" ON "persona_videos" USING btree ("persona_id","created_at");--> statement-breakpoint
CREATE INDEX "personas_ws_created_idx" ON "personas" USING btree ("workspace_id","created_at");