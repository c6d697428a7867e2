ALTER TABLE "knowledge_items" ADD COLUMN "extraction_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_run_extraction_uq" ON "knowledge_items" USING btree ("run_id","extraction_key");