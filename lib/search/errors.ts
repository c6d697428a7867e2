import { AppError } from "../errors.ts";
import type { ProviderError } from "./types.ts";

/**
 * SEARCH_PROVIDERS names an unknown provider or one whose key/URL is missing. An AppError with
 * code `not_configured`, so a route can surface it unchanged, naming the variable to set.
 */
export class SearchConfigError extends AppError {
  readonly variable: string;

  constructor(message: string, variable: string) {
    super("not_configured", message, { details: { variable } });
    this.name = "SearchConfigError";
    this.variable = variable;
  }
}

/** One provider's failure: HTTP status (when there was a response) and the provider's own words. */
export class SearchProviderError extends Error {
  readonly provider: string;
  readonly status: number | undefined;

  constructor(provider: string, message: string, options?: { status?: number; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = "SearchProviderError";
    this.provider = provider;
    this.status = options?.status;
  }
}

/** Every configured provider failed; the message lists each one's reason. */
export class SearchFailedError extends Error {
  readonly errors: ProviderError[];

  constructor(errors: ProviderError[]) {
    super(`All search providers failed: ${errors.map((e) => `${e.provider}: ${e.message}`).join("; ")}`);
    this.name = "SearchFailedError";
    this.errors = errors;
  }
}
