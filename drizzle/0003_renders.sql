CREATE TABLE "renders" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"edit_id" text NOT NULL,
	"edit_hash" text NOT NULL,
	"status" text NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"output_resolution" text NOT NULL,
	"has_watermark" boolean NOT NULL,
	"from_cache" boolean DEFAULT false NOT NULL,
	"storage_key" text,
	"size" bigint,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "renders" ADD CONSTRAINT "renders_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renders" ADD CONSTRAINT "renders_edit_id_edits_id_fk" FOREIGN KEY ("edit_id") REFERENCES "public"."edits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "renders_ws_hash_idx" ON "renders" USING btree ("workspace_id","edit_hash","status");--> statement-breakpoint
CREATE INDEX "renders_ws_status_idx" ON "renders" USING btree ("workspace_id","status");--> statement-breakpoint
CREATE INDEX "renders_status_expires_idx" ON "renders" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "renders_storage_key_idx" ON "renders" USING btree ("storage_key");