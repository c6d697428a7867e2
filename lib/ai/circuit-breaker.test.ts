import { describe, expect, it } from "vitest";
import { createCircuitBreaker } from "./circuit-breaker.ts";

/** A breaker on a clock the test moves by hand. */
function breaker(failureThreshold = 3, cooldownMs = 1000) {
  const clock = { now: 10_000 };
  return { clock, b: createCircuitBreaker({ failureThreshold, cooldownMs }, () => clock.now) };
}

describe("circuit breaker", () => {
  it("stays closed below the threshold; a success starts the count again", () => {
    const { b } = breaker();
    b.failure();
    b.failure();
    b.success();
    b.failure();
    b.failure();
    expect(b.state).toBe("closed");
    expect(b.allow()).toBe(true);
  });

  it("opens after the threshold of failures in a row and refuses calls during the cooldown", () => {
    const { b, clock } = breaker();
    for (let i = 0; i < 3; i++) b.failure();
    expect(b.state).toBe("open");
    expect(b.allow()).toBe(false);
    expect(b.retryAt).toBe(11_000);
    clock.now += 999;
    expect(b.allow()).toBe(false);
  });

  it("half-opens after the cooldown: one trial at a time, whose success closes it", () => {
    const { b, clock } = breaker();
    for (let i = 0; i < 3; i++) b.failure();
    clock.now += 1000;
    expect(b.state).toBe("half_open");
    expect(b.allow()).toBe(true); // the trial
    expect(b.allow()).toBe(false); // others wait for it
    b.success();
    expect(b.state).toBe("closed");
    expect(b.allow()).toBe(true);
    expect(b.retryAt).toBeUndefined();
  });

  it("opens again for a whole cooldown when the trial fails", () => {
    const { b, clock } = breaker();
    for (let i = 0; i < 3; i++) b.failure();
    clock.now += 1500;
    expect(b.allow()).toBe(true);
    b.failure(); // one failure is enough while half-open
    expect(b.state).toBe("open");
    expect(b.retryAt).toBe(clock.now + 1000);
    clock.now += 1000;
    expect(b.state).toBe("half_open");
  });

  it("lets another trial through when one never reported (its call was cancelled)", () => {
    const { b, clock } = breaker();
    for (let i = 0; i < 3; i++) b.failure();
    clock.now += 1000;
    expect(b.allow()).toBe(true);
    clock.now += 999;
    expect(b.allow()).toBe(false);
    clock.now += 1;
    expect(b.allow()).toBe(true);
  });
});
