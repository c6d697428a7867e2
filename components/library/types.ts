import type { LibraryDocumentView as ServerLibraryDocumentView } from "@/lib/server/library/view";
import type { Jsonified } from "../jsonified";

/** A document as GET /api/library lists it (dates as ISO strings, no content; `own`, `shared`). */
export type LibraryDocumentView = Jsonified<ServerLibraryDocumentView>;
