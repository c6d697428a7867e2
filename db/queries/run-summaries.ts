/**
 * The owner's runs for lists (the home page, GET /api/runs): newest first, with how many sources
 * each fetched, optionally narrowed to questions containing a search text.
 */
import { and, desc, eq, ilike, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type Run, runs } from "../schema.ts";

export type RunWithSourceCount = Run & { sourceCount: number };

/** `%` and `_` in the person's text are matched literally, not as wildcards. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listRunsWithSourceCounts(
  db: Db,
  ownerId: string,
  opts: { limit?: number; query?: string } = {},
): Promise<RunWithSourceCount[]> {
  const query = opts.query?.trim();
  // Qualified by hand: drizzle leaves columns unqualified in a one-table select, and inside the
  // subquery an unqualified "id" would be the source's own.
  const sourceCount =
    sql<number>`(select count(*) from "sources" where "sources"."run_id" = "runs"."id")`.mapWith(Number);
  const rows = await db
    .select({ run: runs, sourceCount })
    .from(runs)
    .where(and(eq(runs.ownerId, ownerId), query ? ilike(runs.question, containsPattern(query)) : undefined))
    .orderBy(desc(runs.createdAt))
    .limit(opts.limit ?? 100);
  return rows.map((r) => ({ ...r.run, sourceCount: r.sourceCount }));
}
