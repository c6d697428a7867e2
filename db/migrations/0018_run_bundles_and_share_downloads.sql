ALTER TABLE "runs" ADD COLUMN "imported_from" jsonb;--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "allow_download" boolean DEFAULT false NOT NULL;