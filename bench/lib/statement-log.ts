/**
 * Counts the SQL statements an embedded database runs, each with when it was sent, for the
 * statement probe (bench/statement-probe.ts). A statement inside a transaction is counted too; the
 * transaction itself is one entry ("transaction"), as it is one turn of PGlite's queue.
 */
import type { PGlite } from "@electric-sql/pglite";

export interface LoggedStatement {
  at: number;
  sql: string;
}

export function countStatements(client: PGlite): { statements: LoggedStatement[] } {
  const statements: LoggedStatement[] = [];
  const note = (sql: unknown) => statements.push({ at: Date.now(), sql: String(sql) });
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((sql: string, ...rest: unknown[]) => {
    note(sql);
    return (query as (...a: unknown[]) => unknown)(sql, ...rest);
  }) as typeof client.query;
  client.exec = ((sql: string, ...rest: unknown[]) => {
    note(sql);
    return (exec as (...a: unknown[]) => unknown)(sql, ...rest);
  }) as typeof client.exec;
  client.transaction = ((callback: Parameters<typeof client.transaction>[0]) => {
    note("transaction");
    return transaction((tx) => {
      const inner = tx.query.bind(tx);
      tx.query = ((sql: string, ...rest: unknown[]) => {
        note(`in transaction: ${sql}`);
        return (inner as (...a: unknown[]) => unknown)(sql, ...rest);
      }) as typeof tx.query;
      return callback(tx);
    });
  }) as typeof client.transaction;
  return { statements };
}

/** A statement's kind: its verb and table ("insert into sources"), parameters and columns left out. */
export function statementKind(sql: string): string {
  const s = sql.replace(/\s+/g, " ").trim();
  const prefix = s.startsWith("in transaction: ") ? "tx " : "";
  const body = prefix ? s.slice(16) : s;
  const m =
    /^(with \w+ as \( ?update "?(\w+)"?)/i.exec(body) ??
    /^(insert into "?(\w+)"?)/i.exec(body) ??
    /^(update "?(\w+)"?)/i.exec(body) ??
    /^(delete from "?(\w+)"?)/i.exec(body) ??
    /^(select) .*? from "?(\w+)"?/i.exec(body);
  if (!m) return prefix + body.slice(0, 40);
  const verb = m[1].split(" ")[0].toLowerCase();
  return `${prefix}${verb === "with" ? "append events (update runs)" : verb} ${m[2]}`;
}
