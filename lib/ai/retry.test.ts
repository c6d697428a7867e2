import { describe, expect, it, vi } from "vitest";
import { apiError } from "../../test/support/ai-mocks.ts";
import { ModelTimeoutError } from "./errors.ts";
import {
  createLimiter,
  DEFAULT_RETRY_POLICY,
  RetriesExhaustedError,
  retryAfterMs,
  retryDelay,
  withDeadline,
  withRetry,
} from "./retry.ts";

const rateLimited = (headers: Record<string, string> = {}) =>
  apiError({
    status: 429,
    body: { error: { message: "Rate limit reached", code: "rate_limit_exceeded" } },
    headers,
  });
const badRequest = () =>
  apiError({ status: 400, body: { error: { message: "Invalid value for 'temperature'" } } });

/** Records requested waits and returns at once, so tests never really sleep. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe("withRetry", () => {
  it("retries a 429 and returns the later success", async () => {
    const { waits, sleep } = recordingSleep();
    const fn = vi
      .fn()
      .mockRejectedValueOnce(rateLimited())
      .mockRejectedValueOnce(rateLimited())
      .mockResolvedValue("ok");
    await expect(withRetry(fn, { sleep, random: () => 0.5 })).resolves.toBe("ok");
    expect(fn).toHaveBeenCalledTimes(3);
    expect(waits).toHaveLength(2);
  });

  it("gives up after maxAttempts with the last error as cause", async () => {
    const { waits, sleep } = recordingSleep();
    const last = apiError({ status: 503, body: { error: { message: "overloaded" } } });
    const fn = vi
      .fn()
      .mockRejectedValueOnce(rateLimited())
      .mockRejectedValueOnce(rateLimited())
      .mockRejectedValue(last);
    const err = (await withRetry(fn, { maxAttempts: 3, sleep }).catch((e) => e)) as RetriesExhaustedError;
    expect(err).toBeInstanceOf(RetriesExhaustedError);
    expect(err.attempts).toBe(3);
    expect(err.cause).toBe(last);
    expect(fn).toHaveBeenCalledTimes(3);
    expect(waits).toHaveLength(2);
  });

  it("does not retry an ordinary 4xx", async () => {
    const { waits, sleep } = recordingSleep();
    const e = badRequest();
    const fn = vi.fn().mockRejectedValue(e);
    await expect(withRetry(fn, { sleep })).rejects.toBe(e);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(waits).toEqual([]);
  });

  it("retries network failures", async () => {
    const { sleep } = recordingSleep();
    const network = new TypeError("fetch failed", {
      cause: Object.assign(new Error("reset"), { code: "ECONNRESET" }),
    });
    const fn = vi.fn().mockRejectedValueOnce(network).mockResolvedValue(1);
    await expect(withRetry(fn, { sleep })).resolves.toBe(1);
  });

  it("honours retry-after (seconds), retry-after-ms and HTTP dates, capped", () => {
    expect(retryAfterMs(rateLimited({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(rateLimited({ "Retry-After-Ms": "350" }))).toBe(350);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterMs(rateLimited({ "retry-after": "Wed, 01 Jan 2025 00:00:07 GMT" }), now)).toBe(7000);
    const google = apiError({
      status: 429,
      body: { error: { code: 429, status: "RESOURCE_EXHAUSTED", details: [{ retryDelay: "17s" }] } },
    });
    expect(retryAfterMs(google)).toBe(17000);
    const policy = { ...DEFAULT_RETRY_POLICY, maxRetryAfterMs: 60_000 };
    expect(retryDelay(rateLimited({ "retry-after": "3600" }), 1, policy, () => 0.5)).toBe(60_000);
  });

  it("waits what the server asked for instead of the backoff", async () => {
    const { waits, sleep } = recordingSleep();
    const fn = vi
      .fn()
      .mockRejectedValueOnce(rateLimited({ "retry-after": "2" }))
      .mockRejectedValueOnce(rateLimited({ "retry-after-ms": "125" }))
      .mockResolvedValue("ok");
    await withRetry(fn, { sleep, baseDelayMs: 10 });
    expect(waits).toEqual([2000, 125]);
  });

  it("backs off exponentially with jitter between half and the full step, capped", () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    const e = rateLimited();
    expect(retryDelay(e, 1, policy, () => 0)).toBe(50);
    expect(retryDelay(e, 1, policy, () => 1)).toBe(100);
    expect(retryDelay(e, 3, policy, () => 1)).toBe(400);
    expect(retryDelay(e, 10, policy, () => 1)).toBe(1000);
    expect(retryDelay(e, 10, policy, () => 0)).toBe(500);
  });

  it("stops waiting as soon as the signal aborts", async () => {
    const controller = new AbortController();
    const fn = vi.fn().mockRejectedValue(rateLimited({ "retry-after": "30" }));
    const started = Date.now();
    const p = withRetry(fn, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(p).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

describe("createLimiter", () => {
  it("never runs more than max at once and serves waiters in order", async () => {
    const limiter = createLimiter(2);
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) =>
      limiter.run(async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 5));
        order.push(i);
        active--;
      });
    await Promise.all([0, 1, 2, 3, 4].map(task));
    expect(peak).toBe(2);
    expect(order.slice(2)).toEqual([2, 3, 4]);
    expect(limiter.active).toBe(0);
  });

  it("releases the slot when a task fails, and lets a waiter abort", async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(async () => Promise.reject(new Error("x")))).rejects.toThrow("x");
    let release: () => void = () => {};
    const holder = limiter.run(() => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    const waiter = limiter.run(async () => "never", controller.signal);
    expect(limiter.waiting).toBe(1);
    controller.abort();
    await expect(waiter).rejects.toMatchObject({ name: "AbortError" });
    expect(limiter.waiting).toBe(0);
    release();
    await holder;
    await expect(limiter.run(async () => "free")).resolves.toBe("free");
  });
});

describe("withDeadline", () => {
  it("times out a call that ignores its signal", async () => {
    const started = Date.now();
    const err = (await withDeadline(() => new Promise(() => {}), { timeoutMs: 20 }).catch(
      (e) => e,
    )) as ModelTimeoutError;
    expect(err).toBeInstanceOf(ModelTimeoutError);
    expect(err.timeoutMs).toBe(20);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("aborts the call's signal on timeout and reports the timeout, not the SDK's AbortError", async () => {
    let seen: AbortSignal | undefined;
    const err = await withDeadline(
      ({ signal }) =>
        new Promise((_, reject) => {
          seen = signal;
          signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        }),
      { timeoutMs: 10 },
    ).catch((e) => e);
    expect(seen?.aborted).toBe(true);
    expect(err).toBeInstanceOf(ModelTimeoutError);
  });

  it("touch() restarts the timer, so a steadily progressing stream is not cut off", async () => {
    vi.useFakeTimers();
    try {
      // 6 chunks 20 ms apart: 120 ms in total, never 30 ms of silence.
      const stream = (touchEach: boolean) =>
        withDeadline(
          async ({ touch }) => {
            for (let i = 0; i < 6; i++) {
              await new Promise((r) => setTimeout(r, 20));
              if (touchEach) touch();
            }
            return "done";
          },
          { timeoutMs: 30 },
        );
      const touched = stream(true);
      const untouched = stream(false).catch((e) => e);
      await vi.advanceTimersByTimeAsync(200);
      await expect(touched).resolves.toBe("done");
      expect(await untouched).toBeInstanceOf(ModelTimeoutError);
    } finally {
      vi.useRealTimers();
    }
  });

  it("rejects with the caller's abort reason", async () => {
    const controller = new AbortController();
    const p = withDeadline(() => new Promise(() => {}), { timeoutMs: 10_000, signal: controller.signal });
    controller.abort(new Error("run cancelled"));
    await expect(p).rejects.toThrow("run cancelled");
  });
});
