CREATE TABLE "admin_audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action" text NOT NULL,
	"actor_id" text,
	"actor_email" text,
	"subject_email" text,
	"bytes" bigint,
	"ip_address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"reset_by_id" text NOT NULL,
	"reset_by_name" text NOT NULL,
	"reset_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text
);
--> statement-breakpoint
CREATE TABLE "reset_sign_ins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reset_id" uuid NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "scope" text DEFAULT 'research' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "scope_from_upgrade" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Hand-written (keep when regenerating): tokens made before scopes get `research` (the column's
-- default) and expire 90 days after this upgrade at the latest (least() skips a null expiry).
UPDATE "api_tokens" SET "scope_from_upgrade" = true, "expires_at" = least("expires_at", now() + interval '90 days');--> statement-breakpoint
ALTER TABLE "api_tokens" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reset_sign_ins" ADD CONSTRAINT "reset_sign_ins_reset_id_password_resets_id_fk" FOREIGN KEY ("reset_id") REFERENCES "public"."password_resets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_audit_log_created_idx" ON "admin_audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "password_resets_user_idx" ON "password_resets" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "reset_sign_ins_reset_idx" ON "reset_sign_ins" USING btree ("reset_id");