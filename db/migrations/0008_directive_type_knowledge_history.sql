ALTER TABLE "directives" ADD COLUMN "type" text DEFAULT 'initial' NOT NULL;--> statement-breakpoint
ALTER TABLE "directives" ADD COLUMN "rationale" text;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "history" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Directives made before this migration get their type from how and when they were made.
UPDATE "directives" SET "type" = CASE WHEN "origin" = 'user' THEN 'user' WHEN "round" > 0 THEN 'follow-up' ELSE 'initial' END;
