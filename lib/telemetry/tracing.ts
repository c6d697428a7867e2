/**
 * Traces (OpenTelemetry). The SDK is started once per process, and only when an OTLP endpoint
 * is configured (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); otherwise
 * the API's no-op tracer answers every call and nothing is recorded or sent.
 *
 * Spans: run → phase → directive → model call (→ the AI SDK's generation and provider calls),
 * search and fetch. Prompts and fetched text are recorded only with OTEL_RECORD_CONTENT=true.
 */
import { type Attributes, type Span, SpanStatusCode, trace } from "@opentelemetry/api";

export const TRACER_NAME = "deep-research";

export function tracer() {
  return trace.getTracer(TRACER_NAME);
}

type Env = Readonly<Record<string, string | undefined>>;

export function tracingConfigured(env: Env = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** Whether prompts, answers and fetched text may go into spans. */
export function recordContent(env: Env = process.env): boolean {
  return env.OTEL_RECORD_CONTENT === "true";
}

/** True inside a span that is being recorded: only then is it worth building more spans. */
export function tracingActive(): boolean {
  return trace.getActiveSpan()?.isRecording() === true;
}

const globalKey = Symbol.for("deep-research.tracing");
type G = typeof globalThis & { [globalKey]?: Promise<boolean> };

/**
 * Starts the OpenTelemetry Node SDK with the OTLP/HTTP trace exporter, once per process, when an
 * endpoint is configured. Resolves whether it started. The exporter reads the standard OTEL_*
 * variables (headers, protocol, service name) itself.
 */
export function startTracing(env: Env = process.env): Promise<boolean> {
  const g = globalThis as G;
  if (!tracingConfigured(env)) return Promise.resolve(false);
  g[globalKey] ??= (async () => {
    const [{ NodeSDK }, { OTLPTraceExporter }] = await Promise.all([
      import("@opentelemetry/sdk-node"),
      import("@opentelemetry/exporter-trace-otlp-http"),
    ]);
    const sdk = new NodeSDK({
      serviceName: env.OTEL_SERVICE_NAME || "deep-research",
      traceExporter: new OTLPTraceExporter(),
      instrumentations: [],
    });
    sdk.start();
    process.once("beforeExit", () => void sdk.shutdown().catch(() => {}));
    return true;
  })();
  return g[globalKey];
}

/**
 * Runs `fn` inside a span named `name` (child of the active one), ends it when `fn` settles and
 * marks it failed when `fn` throws. With no SDK started this is the no-op tracer: no cost.
 */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
      if (error instanceof Error) span.recordException(error);
      throw error;
    } finally {
      span.end();
    }
  });
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
