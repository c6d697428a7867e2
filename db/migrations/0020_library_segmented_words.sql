ALTER TABLE "library_documents" ADD COLUMN "words" text;--> statement-breakpoint
ALTER TABLE "library_documents" drop column "search";--> statement-breakpoint
ALTER TABLE "library_documents" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce(words, coalesce(title, '') || ' ' || content))) STORED;--> statement-breakpoint
CREATE INDEX "library_search_idx" ON "library_documents" USING gin ("search");
