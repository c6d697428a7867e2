import { z } from "zod";
import { AppError } from "../errors.ts";

const uuid = z.uuid();

/** Route ids are UUIDs; anything else is a caller mistake, not a lookup. */
export function parseRunId(raw: string): string {
  if (!uuid.safeParse(raw).success) throw new AppError("bad_request", `"${raw}" is not a valid run id.`);
  return raw;
}

/** For sub-resources a malformed id cannot exist, so it is simply not found. */
export function runIdOrNotFound(raw: string): string {
  if (!uuid.safeParse(raw).success) throw new AppError("not_found", "No such run.");
  return raw;
}

/** A source id that is not a UUID names no source. */
export function sourceIdOrNotFound(raw: string): string {
  if (!uuid.safeParse(raw).success) throw new AppError("not_found", "No such source in this run.");
  return raw;
}
