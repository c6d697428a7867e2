/**
 * An in-memory OpenTelemetry setup for tests: a tracer provider whose spans land in an
 * InMemorySpanExporter, and a context manager over AsyncLocalStorage (what the Node SDK installs
 * in production), so spans started inside awaited code find their parent.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { type Context, type ContextManager, context, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from "@opentelemetry/sdk-trace";

class AsyncLocalContextManager implements ContextManager {
  #store = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.#store.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.#store.run(ctx, () => fn.apply(thisArg, args));
  }
  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== "function") return target;
    const run = this.with.bind(this);
    return ((...args: unknown[]) =>
      run(ctx, target as (...a: unknown[]) => unknown, undefined, ...args)) as T;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#store.disable();
    return this;
  }
}

export interface InMemoryTracing {
  exporter: InMemorySpanExporter;
  spans(): ReadableSpan[];
  uninstall(): Promise<void>;
}

export function installInMemoryTracing(): InMemoryTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  context.setGlobalContextManager(new AsyncLocalContextManager());
  trace.setGlobalTracerProvider(provider);
  return {
    exporter,
    spans: () => exporter.getFinishedSpans(),
    async uninstall() {
      await provider.shutdown();
      trace.disable();
      context.disable();
    },
  };
}

export function parentIdOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
