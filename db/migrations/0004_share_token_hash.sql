ALTER TABLE "shares" RENAME COLUMN "token" TO "token_hash";--> statement-breakpoint
ALTER TABLE "shares" DROP CONSTRAINT "shares_token_unique";--> statement-breakpoint
-- Existing links keep working: each stored token becomes its SHA-256 (hex), what the app now looks up.
UPDATE "shares" SET "token_hash" = encode(sha256(convert_to("token_hash", 'UTF8')), 'hex');--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "label" text;--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_token_hash_unique" UNIQUE("token_hash");
