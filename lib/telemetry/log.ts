/**
 * The process's structured logger (pino): JSON lines in production, human-readable when
 * NODE_ENV=development or LOG_PRETTY=true; LOG_LEVEL sets the level (default info).
 *
 * Every line written inside a run carries its runId, phase and directiveId without the caller
 * passing them: the run, phase and directive scopes put them in an AsyncLocalStorage that the
 * logger's mixin reads. Secrets never reach the output: known paths are censored by pino, and any
 * key that names a key, token, cookie, password or secret is censored at every depth.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import pino, { type DestinationStream, type Logger } from "pino";

export type { Logger };

/** What a line inside a run carries. */
export type LogContext = { runId?: string; phase?: string; directiveId?: string };

const scope = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with `fields` added to every log line written inside it (nested scopes merge). */
export function withLogContext<T>(fields: LogContext, fn: () => T): T {
  return scope.run({ ...scope.getStore(), ...fields }, fn);
}

export function currentLogContext(): LogContext {
  return scope.getStore() ?? {};
}

const CENSOR = "[redacted]";
/** pino's own censoring, for the places secrets are known to travel. */
const REDACT_PATHS = [
  "authorization",
  "cookie",
  "apiKey",
  "*.authorization",
  "*.cookie",
  "*.apiKey",
  "headers.authorization",
  "headers.cookie",
  'headers["set-cookie"]',
  "req.headers.authorization",
  "req.headers.cookie",
];
/** Any other key that looks like a secret, at any depth (`*Key` covers apiKey, secretKey, …). */
const SECRET_KEY = /Key$|^(authorization|cookie|set-cookie|password|secret|token|apikey|api_key)$/i;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A copy with secret-looking keys censored; errors and other class instances are left to pino's serializers. */
export function censorSecrets(value: unknown, depth = 0): unknown {
  if (depth > 6) return value;
  if (Array.isArray(value)) return value.map((v) => censorSecrets(v, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEY.test(k) && v !== undefined && v !== null ? CENSOR : censorSecrets(v, depth + 1);
  }
  return out;
}

export type LoggerOptions = {
  env?: Readonly<Record<string, string | undefined>>;
  /** Where lines go (tests capture them); default stdout, or pino-pretty when pretty. */
  destination?: DestinationStream;
};

function prettyStream(): DestinationStream | undefined {
  try {
    // A development dependency, loaded only when asked for: production never needs it.
    const pretty = createRequire(import.meta.url)("pino-pretty") as (o: object) => DestinationStream;
    return pretty({ colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" });
  } catch {
    return undefined;
  }
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const env = opts.env ?? process.env;
  const pretty = env.LOG_PRETTY === "true" || (env.LOG_PRETTY !== "false" && env.NODE_ENV === "development");
  const destination = opts.destination ?? (pretty ? prettyStream() : undefined);
  return pino(
    {
      level: env.LOG_LEVEL || "info",
      base: { service: "deep-research" },
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      mixin: () => currentLogContext(),
      formatters: { log: (obj) => censorSecrets(obj) as Record<string, unknown> },
    },
    destination ?? pino.destination({ sync: true }),
  );
}

const globalKey = Symbol.for("deep-research.logger");
type G = typeof globalThis & { [globalKey]?: Logger };

/** The process's root logger, created on first use (one per process, also across Next's bundles). */
export function rootLogger(): Logger {
  const g = globalThis as G;
  g[globalKey] ??= createLogger();
  return g[globalKey];
}

/** Replaces the root logger (tests capture output this way); returns the previous one. */
export function setRootLogger(logger: Logger | undefined): Logger | undefined {
  const g = globalThis as G;
  const previous = g[globalKey];
  g[globalKey] = logger;
  return previous;
}

/** A logger for one part of the app: `log("worker").info(...)` adds `component: "worker"`. */
export function log(component: string): Logger {
  return rootLogger().child({ component });
}
