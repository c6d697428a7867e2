/** The settings page's field names and words, for its client components (no server code in them). */
export * from "../../jobs/settings/labels.ts";
