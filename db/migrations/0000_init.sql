CREATE TABLE "citations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"source_id" uuid NOT NULL,
	"sentence" text NOT NULL,
	"support" text DEFAULT 'unchecked' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "directive_sources" (
	"directive_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "directive_sources_directive_id_source_id_pk" PRIMARY KEY("directive_id","source_id")
);
--> statement-breakpoint
CREATE TABLE "directives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"ordinal" integer NOT NULL,
	"round" integer NOT NULL,
	"topic" text NOT NULL,
	"normalized_topic" text NOT NULL,
	"perspective" text,
	"evidence_needed" text,
	"priority" text DEFAULT 'normal' NOT NULL,
	"origin" text DEFAULT 'supervisor' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "knowledge_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" text NOT NULL,
	"run_id" uuid,
	"category" text NOT NULL,
	"content" text NOT NULL,
	"source_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"confidence" real DEFAULT 0.5 NOT NULL,
	"needs_review" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'provisional' NOT NULL,
	"origin" text DEFAULT 'extracted' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "library_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" text NOT NULL,
	"title" text NOT NULL,
	"source_url" text,
	"mime_type" text DEFAULT 'text/plain' NOT NULL,
	"content" text NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce(title, '') || ' ' || content)) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"markdown" text NOT NULL,
	"partial" boolean DEFAULT false NOT NULL,
	"citation_stats" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_run_id_unique" UNIQUE("run_id")
);
--> statement-breakpoint
CREATE TABLE "researcher_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"directive_id" uuid NOT NULL,
	"messages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"compressed_findings" text,
	"raw_notes" text,
	"tool_calls" integer DEFAULT 0 NOT NULL,
	"stop_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "run_events" (
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_events_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" text NOT NULL,
	"question" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"phase" text,
	"brief" text,
	"clarification_question" text,
	"clarification_answer" text,
	"error" text,
	"usage" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state_version" integer DEFAULT 1 NOT NULL,
	"checkpoint" jsonb,
	"last_event_seq" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "shares_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"url" text NOT NULL,
	"normalized_url" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"domain" text DEFAULT '' NOT NULL,
	"provider" text DEFAULT '' NOT NULL,
	"quality" text DEFAULT 'UNKNOWN' NOT NULL,
	"snippet" text,
	"content" text,
	"content_hash" text,
	"fetched_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "supervision_rounds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"method" text NOT NULL,
	"directives_generated" integer DEFAULT 0 NOT NULL,
	"directives_executed" integer DEFAULT 0 NOT NULL,
	"new_sources" integer DEFAULT 0 NOT NULL,
	"think" text,
	"assessment" jsonb,
	"coverage_before" jsonb,
	"coverage_after" jsonb,
	"decision" text,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "directive_sources" ADD CONSTRAINT "directive_sources_directive_id_directives_id_fk" FOREIGN KEY ("directive_id") REFERENCES "public"."directives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "directive_sources" ADD CONSTRAINT "directive_sources_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "directives" ADD CONSTRAINT "directives_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD CONSTRAINT "knowledge_items_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "researcher_results" ADD CONSTRAINT "researcher_results_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "researcher_results" ADD CONSTRAINT "researcher_results_directive_id_directives_id_fk" FOREIGN KEY ("directive_id") REFERENCES "public"."directives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_events" ADD CONSTRAINT "run_events_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sources" ADD CONSTRAINT "sources_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supervision_rounds" ADD CONSTRAINT "supervision_rounds_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "citations_run_idx" ON "citations" USING btree ("run_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "directives_run_topic_uq" ON "directives" USING btree ("run_id","normalized_topic");--> statement-breakpoint
CREATE UNIQUE INDEX "directives_run_ordinal_uq" ON "directives" USING btree ("run_id","ordinal");--> statement-breakpoint
CREATE INDEX "knowledge_owner_status_idx" ON "knowledge_items" USING btree ("owner_id","status");--> statement-breakpoint
CREATE INDEX "library_search_idx" ON "library_documents" USING gin ("search");--> statement-breakpoint
CREATE UNIQUE INDEX "researcher_results_directive_uq" ON "researcher_results" USING btree ("directive_id");--> statement-breakpoint
CREATE INDEX "runs_owner_created_idx" ON "runs" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "shares_run_idx" ON "shares" USING btree ("run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sources_run_url_uq" ON "sources" USING btree ("run_id","normalized_url");--> statement-breakpoint
CREATE UNIQUE INDEX "supervision_rounds_run_round_uq" ON "supervision_rounds" USING btree ("run_id","round");