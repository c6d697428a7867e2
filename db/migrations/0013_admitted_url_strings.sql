-- page_links now keeps each admitted URL string as seen. Rows stored before keep their normalised
-- spelling, which is then the admitted string for a run resumed across the upgrade.
ALTER TABLE "page_links" RENAME COLUMN "normalized_url" TO "url";--> statement-breakpoint
ALTER TABLE "page_links" DROP CONSTRAINT "page_links_run_id_normalized_url_pk";--> statement-breakpoint
ALTER TABLE "page_links" ADD CONSTRAINT "page_links_run_id_url_pk" PRIMARY KEY("run_id","url");