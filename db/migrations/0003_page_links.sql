CREATE TABLE "page_links" (
	"run_id" uuid NOT NULL,
	"normalized_url" text NOT NULL,
	"source_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "page_links_run_id_normalized_url_pk" PRIMARY KEY("run_id","normalized_url")
);
--> statement-breakpoint
ALTER TABLE "page_links" ADD CONSTRAINT "page_links_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_links" ADD CONSTRAINT "page_links_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;