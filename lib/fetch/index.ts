export type { ExtractedDocument } from "./extract.ts";
export { ExtractionError, extractDocument, fetchDocument } from "./extract.ts";
export { isForbiddenAddress } from "./ip.ts";
export type { FetchedResource, FetchRefusalReason, SafeFetchOptions } from "./safe-fetch.ts";
export { FetchRefusedError, parseAllowedHosts, safeFetch } from "./safe-fetch.ts";
