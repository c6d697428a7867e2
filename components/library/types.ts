import type { LibraryDocumentSummary } from "@/db/queries/library";
import type { Jsonified } from "../jsonified";

/** A document as GET /api/library lists it (dates as ISO strings, no content). */
export type LibraryDocumentView = Jsonified<LibraryDocumentSummary>;
