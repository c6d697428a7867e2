ALTER TABLE "citations" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "citations" ADD COLUMN "passage" text;