-- pg_trgm ranks follow-up questions' passages by word similarity (PGlite loads it as an extension; PostgreSQL ships it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "passage_indexes" (
	"run_id" uuid PRIMARY KEY NOT NULL,
	"passages" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "run_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"question" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"answer" text,
	"citations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"model" text,
	"usage" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"job_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "source_passages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"ordinal" integer NOT NULL,
	"text" text NOT NULL,
	"words" text NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', words)) STORED
);
--> statement-breakpoint
ALTER TABLE "passage_indexes" ADD CONSTRAINT "passage_indexes_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_questions" ADD CONSTRAINT "run_questions_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "source_passages" ADD CONSTRAINT "source_passages_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "source_passages" ADD CONSTRAINT "source_passages_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "run_questions_run_idx" ON "run_questions" USING btree ("run_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "source_passages_source_ordinal_uq" ON "source_passages" USING btree ("source_id","ordinal");--> statement-breakpoint
CREATE INDEX "source_passages_run_idx" ON "source_passages" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "source_passages_search_idx" ON "source_passages" USING gin ("search");