CREATE TABLE "broadcast_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"broadcast_id" text NOT NULL,
	"index" integer NOT NULL,
	"status" text NOT NULL,
	"offset_seconds" double precision NOT NULL,
	"seconds" double precision DEFAULT 0 NOT NULL,
	"chunks" jsonb NOT NULL,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"submission_id" text,
	"clips_count" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"started_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"monitor_id" text NOT NULL,
	"title" text NOT NULL,
	"status" text NOT NULL,
	"external_id" text NOT NULL,
	"playlist_url" text NOT NULL,
	"next_sequence" integer,
	"last_growth_at" timestamp with time zone,
	"end_reason" text,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_entries" (
	"monitor_id" text NOT NULL,
	"entry_id" text NOT NULL,
	"url" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"baseline" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"submission_id" text,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitor_entries_monitor_id_entry_id_pk" PRIMARY KEY("monitor_id","entry_id")
);
--> statement-breakpoint
CREATE TABLE "monitors" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"platform" text NOT NULL,
	"watch_url" text NOT NULL,
	"status" text DEFAULT 'stopped' NOT NULL,
	"stop_reason" text,
	"template_id" text,
	"strategy_id" text,
	"source_language" text DEFAULT 'auto' NOT NULL,
	"started_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"poll_seq" integer DEFAULT 0 NOT NULL,
	"poll_lease_until" timestamp with time zone,
	"watch_state" jsonb,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "monitor_id" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "live_batch" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcast_batches" ADD CONSTRAINT "broadcast_batches_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_batches" ADD CONSTRAINT "broadcast_batches_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_entries" ADD CONSTRAINT "monitor_entries_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "broadcast_batches_broadcast_index_uq" ON "broadcast_batches" USING btree ("broadcast_id","index");--> statement-breakpoint
CREATE UNIQUE INDEX "broadcast_batches_submission_uq" ON "broadcast_batches" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "broadcasts_monitor_started_idx" ON "broadcasts" USING btree ("monitor_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "broadcasts_monitor_live_uq" ON "broadcasts" USING btree ("monitor_id") WHERE "broadcasts"."status" = 'live';--> statement-breakpoint
CREATE INDEX "monitors_ws_created_idx" ON "monitors" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "submissions_monitor_idx" ON "submissions" USING btree ("monitor_id");