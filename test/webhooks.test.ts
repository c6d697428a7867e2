// Webhooks end to end below the HTTP layer: a run that ends through the worker's own writers
// (finishRun) owes one signed POST, which the real pg-boss queue delivers to a local receiver —
// once, retried after a 500, never to a private address that WEBHOOK_ALLOWED_HOSTS does not name.
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { createRun } from "../db/queries/runs.ts";
import { listRunWebhookDeliveries } from "../db/queries/webhooks.ts";
import { users, type WebhookDelivery } from "../db/schema.ts";
import { createRunBus, type RunBus } from "../lib/jobs/bus.ts";
import { createRunWriters } from "../lib/jobs/execute-run.ts";
import { getBoss, stopBoss } from "../lib/jobs/queue.ts";
import { oweRunWebhook } from "../lib/jobs/webhooks/owed.ts";
import { webhookSecretFor } from "../lib/jobs/webhooks/secret.ts";
import { signWebhook, verifyWebhookSignature } from "../lib/jobs/webhooks/signature.ts";
import { startWebhookWorker } from "../lib/jobs/webhooks/worker.ts";
import { testDatabases } from "./databases.ts";

const authSecret = "test-auth-secret-for-webhooks-0123456789abcdef";

/** What a receiver written from docs/usage.md ("Webhooks") would do, with node:crypto only. */
function receiverAccepts(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
  return expected === signature;
}

describe("webhook signatures", () => {
  it("verifies with node:crypto as a receiver would, and fails for a tampered body or timestamp", () => {
    const body = JSON.stringify({ event: "run.completed", runId: "r1" });
    const signature = signWebhook("whsec_abc", 1_700_000_000, body);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(receiverAccepts("whsec_abc", "1700000000", body, signature)).toBe(true);
    expect(verifyWebhookSignature("whsec_abc", "1700000000", body, signature)).toBe(true);
    const tampered = body.replace("r1", "r2");
    expect(receiverAccepts("whsec_abc", "1700000000", tampered, signature)).toBe(false);
    expect(verifyWebhookSignature("whsec_abc", "1700000000", tampered, signature)).toBe(false);
    expect(verifyWebhookSignature("whsec_abc", "1700000001", body, signature)).toBe(false);
    expect(verifyWebhookSignature("whsec_other", "1700000000", body, signature)).toBe(false);
  });
});

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local receiver; each request takes the next scripted status (the last one repeats). */
async function startReceiver() {
  const received: Received[] = [];
  let script: number[] = [200];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      const status = script.length > 1 ? (script.shift() as number) : script[0];
      res.writeHead(status, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    received,
    answer(statuses: number[]) {
      script = statuses;
      received.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const database of testDatabases()) {
  describe(`webhook delivery on ${database.name}`, () => {
    let h: DatabaseHandle;
    let bus: RunBus;
    let boss: PgBoss;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let worker: { stop(): Promise<void> };
    const owner = `webhook-owner-${database.name}`;

    beforeAll(async () => {
      receiver = await startReceiver();
      process.env.AUTH_SECRET = authSecret;
      h = await database.open();
      bus = await createRunBus(h);
      boss = await getBoss(h);
      await h.db.insert(users).values({ id: owner, name: "Owner", email: `${owner}@example.org` });
      worker = await startWebhookWorker(h.db, boss, {
        pollSeconds: 0.5,
        env: {
          AUTH_SECRET: authSecret,
          APP_URL: "https://research.example.org",
          // Only the receiver's exact host:port may be private; everything else private is refused,
          // also what the research fetch allowlist opens (it is for reading, not for users' POSTs).
          WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
          FETCH_ALLOWED_HOSTS: `localhost:${receiver.port},10.0.0.7`,
          WEBHOOK_RETRY_LIMIT: "3",
          WEBHOOK_RETRY_DELAY_SECONDS: "1",
        },
      });
    }, 60_000);
    afterAll(async () => {
      await worker.stop();
      await stopBoss();
      await bus.close();
      await h.close();
      await receiver.close();
    });

    async function endedRun(url: string, event: "run.completed" | "run.failed" = "run.completed") {
      const run = await createRun(h.db, {
        ownerId: owner,
        question: "Do heat pumps work?",
        settings: { webhookUrl: url },
      });
      const { store } = createRunWriters(h.db, bus, run.id, boss);
      const ended = await store.finishRun(
        event === "run.completed"
          ? { type: "run.completed", sources: 2, citations: 3, partial: false }
          : { type: "run.failed", reason: "The model is down.", partial: false },
      );
      expect(ended).toBe(true);
      return run;
    }

    const deliveries = (runId: string) => listRunWebhookDeliveries(h.db, runId);
    const settled = (rows: WebhookDelivery[]) => rows.length > 0 && rows.every((d) => d.status !== "pending");

    it("delivers once, signed with the owner's secret, with the run's links", async () => {
      receiver.answer([200]);
      const url = `http://127.0.0.1:${receiver.port}/hook`;
      const run = await endedRun(url);
      const [delivery] = await waitFor(() => deliveries(run.id), settled);
      expect(delivery).toMatchObject({
        status: "delivered",
        attempts: 1,
        lastStatus: 200,
        event: "run.completed",
      });
      expect(receiver.received).toHaveLength(1);

      const { headers, body } = receiver.received[0];
      const secret = await webhookSecretFor(h.db, owner, authSecret);
      const timestamp = headers["x-deepresearch-timestamp"] as string;
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
      expect(headers["x-deepresearch-event"]).toBe("run.completed");
      expect(headers["content-type"]).toBe("application/json");
      expect(receiverAccepts(secret, timestamp, body, headers["x-deepresearch-signature"] as string)).toBe(
        true,
      );
      expect(JSON.parse(body)).toEqual({
        event: "run.completed",
        runId: run.id,
        status: "completed",
        question: "Do heat pumps work?",
        url: `https://research.example.org/runs/${run.id}`,
        report: `https://research.example.org/api/runs/${run.id}/report.md`,
        at: delivery.createdAt.toISOString(),
      });
    });

    it("owes nothing more when the terminal step repeats (a resumed job, a sweep)", async () => {
      receiver.answer([200]);
      const run = await endedRun(`http://127.0.0.1:${receiver.port}/again`, "run.failed");
      // The worker's next attempt ends the run again: the run has ended, so nothing is written.
      const { store } = createRunWriters(h.db, bus, run.id, boss);
      expect(await store.finishRun({ type: "run.failed", reason: "again", partial: false })).toBe(false);
      // Even owed again directly, the unique (run, url, event) key keeps it to one delivery.
      const owedAgain = await h.db.transaction((tx) =>
        oweRunWebhook(tx as unknown as typeof h.db, boss, run.id, "run.failed"),
      );
      expect(owedAgain).toBe(false);
      const rows = await waitFor(() => deliveries(run.id), settled);
      await new Promise((r) => setTimeout(r, 1500));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: "delivered", event: "run.failed", attempts: 1 });
      expect(receiver.received).toHaveLength(1);
      expect(JSON.parse(receiver.received[0].body)).toMatchObject({ status: "failed", event: "run.failed" });
    });

    it("retries after a 500 with backoff and then delivers (2 attempts)", async () => {
      receiver.answer([500, 200]);
      const run = await endedRun(`http://127.0.0.1:${receiver.port}/flaky`);
      const [delivery] = await waitFor(() => deliveries(run.id), settled, 30_000);
      expect(delivery).toMatchObject({ status: "delivered", attempts: 2, lastStatus: 200, lastError: null });
      expect(receiver.received).toHaveLength(2);
      // Both attempts carry the same body, each signed for its own timestamp.
      const [first, second] = receiver.received;
      expect(second.body).toBe(first.body);
      const secret = await webhookSecretFor(h.db, owner, authSecret);
      for (const r of receiver.received) {
        const ts = r.headers["x-deepresearch-timestamp"] as string;
        expect(receiverAccepts(secret, ts, r.body, r.headers["x-deepresearch-signature"] as string)).toBe(
          true,
        );
      }
    }, 40_000);

    it("fails a 4xx at once without retrying", async () => {
      receiver.answer([410]);
      const run = await endedRun(`http://127.0.0.1:${receiver.port}/gone`);
      const [delivery] = await waitFor(() => deliveries(run.id), settled);
      await new Promise((r) => setTimeout(r, 2500));
      expect(await deliveries(run.id)).toMatchObject([
        { status: "failed", attempts: 1, lastStatus: 410, lastError: "The receiver answered HTTP 410" },
      ]);
      expect(delivery.status).toBe("failed");
      expect(receiver.received).toHaveLength(1);
    });

    it("refuses a private address that WEBHOOK_ALLOWED_HOSTS does not name (FETCH_ALLOWED_HOSTS does not count), without retrying", async () => {
      receiver.answer([200]);
      // localhost resolves to the receiver's own address, but only "127.0.0.1:<port>" is allowed:
      // the guard checks the DNS answer at connect time and refuses it.
      const viaName = await endedRun(`http://localhost:${receiver.port}/hook`);
      // An IP literal on another private address is refused before any connection.
      const literal = await endedRun("http://10.0.0.7/hook");
      for (const run of [viaName, literal]) {
        await waitFor(() => deliveries(run.id), settled);
      }
      await new Promise((r) => setTimeout(r, 2500));
      for (const run of [viaName, literal]) {
        const [delivery] = await deliveries(run.id);
        expect(delivery).toMatchObject({ status: "failed", attempts: 1, lastStatus: null });
        expect(delivery.lastError).toMatch(
          /^Refused: .*not a public address; add it to WEBHOOK_ALLOWED_HOSTS/,
        );
      }
      expect(receiver.received).toHaveLength(0);
    });

    it("owes nothing for a cancelled run or a run without a webhook URL", async () => {
      const cancelled = await createRun(h.db, {
        ownerId: owner,
        question: "Cancelled?",
        settings: { webhookUrl: `http://127.0.0.1:${receiver.port}/x` },
      });
      const writers = createRunWriters(h.db, bus, cancelled.id, boss);
      expect(await writers.store.finishRun({ type: "run.cancelled", reason: "cancelled by the user" })).toBe(
        true,
      );
      const plain = await createRun(h.db, { ownerId: owner, question: "No hook?", settings: {} });
      const plainWriters = createRunWriters(h.db, bus, plain.id, boss);
      await plainWriters.store.finishRun({ type: "run.completed", sources: 0, citations: 0, partial: false });
      expect(await deliveries(cancelled.id)).toEqual([]);
      expect(await deliveries(plain.id)).toEqual([]);
    });
  });
}
