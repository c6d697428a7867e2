ALTER TABLE "runs" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "version_of" uuid;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_parent_id_runs_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_version_of_runs_id_fk" FOREIGN KEY ("version_of") REFERENCES "public"."runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "runs_parent_idx" ON "runs" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "runs_version_of_idx" ON "runs" USING btree ("version_of");