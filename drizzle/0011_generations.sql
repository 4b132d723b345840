CREATE TABLE "generation_images" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"size" bigint NOT NULL,
	"generation_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "generation_models" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"provider_model" text NOT NULL,
	"base_url" text,
	"api_key_sealed" text,
	"description" text DEFAULT '' NOT NULL,
	"inputs" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"price_per_image" double precision,
	"price_per_second" double precision,
	"max_seconds" double precision,
	"image_field" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "generations" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"model_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"prompt" text,
	"image_ids" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"seconds" double precision,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"provider_job_id" text,
	"output" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "generation_images" ADD CONSTRAINT "generation_images_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generation_images_ws_idx" ON "generation_images" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "generations_ws_created_idx" ON "generations" USING btree ("workspace_id","created_at");