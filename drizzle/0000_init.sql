CREATE TABLE "api_key_workspaces" (
	"key_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	CONSTRAINT "api_key_workspaces_key_id_workspace_id_pk" PRIMARY KEY("key_id","workspace_id")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"secret_hash" text NOT NULL,
	"label" text,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"response_body" text,
	"response_headers" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"amount" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"waived" boolean DEFAULT false NOT NULL,
	"job_type" text,
	"job_id" text,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"name" text PRIMARY KEY NOT NULL,
	"is_free" boolean DEFAULT false NOT NULL,
	"max_video_duration" integer NOT NULL,
	"max_upload_size" bigint NOT NULL,
	"render_expiry_hours" double precision NOT NULL,
	"max_concurrent_renders" integer NOT NULL,
	"daily_post_limit" integer NOT NULL,
	"force_watermark" boolean DEFAULT false NOT NULL,
	"rate_limit_per_minute" integer NOT NULL,
	"analysis_rate_limit_per_minute" integer NOT NULL,
	"discount_percent" double precision DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_windows" (
	"bucket" text NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_windows_bucket_window_start_pk" PRIMARY KEY("bucket","window_start")
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_personal" boolean DEFAULT false NOT NULL,
	"plan_name" text NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"unlimited" boolean DEFAULT false NOT NULL,
	"unlimited_until" timestamp with time zone,
	"member_count" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_key_workspaces" ADD CONSTRAINT "api_key_workspaces_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_workspaces" ADD CONSTRAINT "api_key_workspaces_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_plan_name_plans_name_fk" FOREIGN KEY ("plan_name") REFERENCES "public"."plans"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_key_workspaces_ws_idx" ON "api_key_workspaces" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_ws_seq_idx" ON "ledger_entries" USING btree ("workspace_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_job_kind_uq" ON "ledger_entries" USING btree ("workspace_id","kind","job_type","job_id");