// The logger: JSON lines that carry the run scope's ids, and secrets censored wherever they appear.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, withLogContext } from "./log.ts";

function captured(env: Record<string, string> = {}) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n")) if (l.trim()) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: createLogger({ env, destination }) };
}

describe("createLogger", () => {
  it("censors an authorization header, cookies and anything named like a key", () => {
    const { lines, logger } = captured();
    logger.info(
      {
        headers: { authorization: "Bearer drt_supersecret", cookie: "session=abc123", accept: "text/html" },
        provider: { apiKey: "sk-live-123", baseUrl: "https://api.example.com" },
        nested: { deeper: { encryptionKey: "k-456", password: "hunter2" } },
      },
      "calling a provider",
    );
    const text = JSON.stringify(lines);
    for (const secret of ["drt_supersecret", "abc123", "sk-live-123", "k-456", "hunter2"]) {
      expect(text).not.toContain(secret);
    }
    const [line] = lines as [
      {
        headers: Record<string, string>;
        provider: Record<string, string>;
        nested: { deeper: Record<string, string> };
      },
    ];
    expect(line.headers.authorization).toBe("[redacted]");
    expect(line.headers.accept).toBe("text/html");
    expect(line.provider.baseUrl).toBe("https://api.example.com");
    expect(line.nested.deeper.encryptionKey).toBe("[redacted]");
  });

  it("adds the run, phase and directive of the scope a line is written in", async () => {
    const { lines, logger } = captured();
    await withLogContext({ runId: "run-1" }, async () => {
      logger.info("run line");
      await withLogContext({ phase: "supervision" }, async () => {
        await Promise.resolve();
        await withLogContext({ directiveId: "dir-7" }, async () => logger.warn("directive line"));
      });
    });
    logger.info("outside");
    expect(lines[0]).toMatchObject({ runId: "run-1", msg: "run line" });
    expect(lines[0].phase).toBeUndefined();
    expect(lines[1]).toMatchObject({ runId: "run-1", phase: "supervision", directiveId: "dir-7", level: 40 });
    expect(lines[2].runId).toBeUndefined();
  });

  it("serialises errors and honours LOG_LEVEL", () => {
    const { lines, logger } = captured({ LOG_LEVEL: "warn" });
    logger.info("dropped");
    logger.error({ err: new Error("the database went away") }, "failed");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: "failed", err: { message: "the database went away" } });
  });
});
