/**
 * Scripted model server for tests (never used in production). It speaks four wire formats on one
 * port: OpenAI-compatible chat completions (`/v1/chat/completions`), the OpenAI Responses API
 * (`/v1/responses`), the Anthropic Messages API (`/v1/messages`) and the Gemini API
 * (`/v1beta/models/{model}:generateContent` and `:streamGenerateContent`). Tests script replies per
 * request (matched by model, prompt, tool or schema, whatever the format); the server enforces each
 * provider's documented request rules, answering a broken rule with that provider's own error, and
 * records every request with the rules it broke, so a test can judge by the server's own log.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { createAnthropicWire } from "./llm-server/anthropic.ts";
import { chatWire, openAiErrorFor } from "./llm-server/chat.ts";
import { createGeminiWire, isGeminiPath } from "./llm-server/gemini.ts";
import {
  emulateBodySchema,
  emulationSchema,
  localServerRefusal,
  type ServerEmulation,
} from "./llm-server/local-servers.ts";
import { createResponsesWire } from "./llm-server/responses.ts";
import {
  type AnswerReply,
  matches,
  randomId,
  rulesBodySchema,
  type ScriptRule,
  summarize,
  toAnswer,
  validateRules,
  type WireRequest,
} from "./llm-server/script.ts";
import type { Body, Frame, Wire, WireError, WireFormat } from "./llm-server/wire.ts";

export type { ServerEmulation } from "./llm-server/local-servers.ts";
export type { RuleMatch, ScriptedReply, ScriptRule } from "./llm-server/script.ts";
export type { WireFormat } from "./llm-server/wire.ts";

export interface RecordedRequest {
  id: number;
  /** When the request arrived (before its body was read). */
  at: number;
  format: WireFormat;
  path: string;
  rule?: string;
  body: Body;
  model: string;
  /** The structured output asked for (the wire's schema name, or the schema's title). */
  schemaName?: string;
  tools: string[];
  stream: boolean;
  /** The provider's documented request rules this request broke; it was refused with the provider's error. */
  violations: string[];
  // 0 while no response has been started (e.g. a pending `hang`)
  status: number;
  aborted: boolean;
  /** When the response ended (finished or the client went away); undefined while it is open. */
  endedAt?: number;
}

export interface ScriptedLlmOptions {
  port?: number;
  /** A fixed delay before every reply (benchmarks: a model that answers every call in this time). */
  latencyMs?: number;
  /** The only key each provider accepts (its 401 otherwise); by default any key will do. */
  keys?: { openai?: string; anthropic?: string; google?: string };
  /** Refuse requests that break a provider's documented rules (default true). */
  enforceRules?: boolean;
}

export interface ScriptedLlm {
  /** The OpenAI-style base URL (…/v1): OpenAI-compatible, OpenAI and Anthropic clients use it. */
  url: string;
  /** Each provider package's base URL. */
  baseUrls: { openai: string; anthropic: string; google: string; "openai-compatible": string };
  port: number;
  setScript(rules: ScriptRule[]): void;
  addRules(rules: ScriptRule[]): void;
  /** Emulate local servers lacking features (replaces earlier emulations; reset clears them). */
  emulate(servers: ServerEmulation[]): void;
  reset(): void;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function sendJson(res: http.ServerResponse, e: WireError) {
  res.writeHead(e.status, { "content-type": "application/json", ...e.headers });
  res.end(typeof e.body === "string" ? e.body : JSON.stringify(e.body));
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const frameText = (f: Frame) =>
  "raw" in f
    ? `data: ${f.raw}\n\n`
    : `${f.event ? `event: ${f.event}\n` : ""}data: ${JSON.stringify(f.data)}\n\n`;

interface RuleState {
  rule: ScriptRule;
  next: number;
}

export async function startScriptedLlm(opts: ScriptedLlmOptions = {}): Promise<ScriptedLlm> {
  let rules: RuleState[] = [];
  let emulations: ServerEmulation[] = [];
  const requests: RecordedRequest[] = [];
  let nextId = 1;
  // Timers of delayed replies, cleared on close so the process can exit.
  const timers = new Set<NodeJS.Timeout>();
  const makeWires = () => ({
    responses: createResponsesWire({ apiKey: opts.keys?.openai }),
    anthropic: createAnthropicWire({ apiKey: opts.keys?.anthropic }),
    gemini: createGeminiWire({ apiKey: opts.keys?.google }),
  });
  let wires = makeWires();

  function wireFor(method: string | undefined, path: string): Wire | undefined {
    if (method !== "POST") return undefined;
    if (path === "/v1/chat/completions") return chatWire;
    if (path === "/v1/responses") return wires.responses;
    if (path === "/v1/messages") return wires.anthropic;
    if (isGeminiPath(path)) return wires.gemini;
    return undefined;
  }

  function pick(req: WireRequest): { state: RuleState; index: number } | undefined {
    for (const [index, state] of rules.entries()) {
      const { rule } = state;
      const exhausted = state.next >= rule.replies.length && !rule.repeat;
      if (!exhausted && matches(rule, req)) return { state, index };
    }
    return undefined;
  }

  function wait(ms: number, res: http.ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      if (res.destroyed) return resolve(false);
      const t = setTimeout(() => {
        timers.delete(t);
        res.off("close", onClose);
        resolve(!res.destroyed);
      }, ms);
      timers.add(t);
      const onClose = () => {
        clearTimeout(t);
        timers.delete(t);
        resolve(false);
      };
      res.once("close", onClose);
    });
  }

  async function handleModelCall(wire: Wire, req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    // The call is in flight from its arrival: reading a long body (a report's findings) and parsing
    // it is this server's time, not the client's (the benchmarks measure the app's gaps from `at`).
    const arrivedAt = Date.now();
    const raw = await readBody(req);
    const rec: RecordedRequest = {
      id: nextId++,
      at: arrivedAt,
      format: wire.format,
      path: url.pathname,
      body: raw,
      model: "",
      tools: [],
      stream: false,
      violations: [],
      status: 0,
      aborted: false,
    };
    requests.push(rec);
    // A client that goes away before the response completed counts as an abort.
    res.on("close", () => {
      rec.endedAt = Date.now();
      if (!res.writableFinished) rec.aborted = true;
    });
    const answer = (e: WireError) => {
      rec.status = e.status;
      sendJson(res, e);
    };
    try {
      rec.body = JSON.parse(raw);
    } catch {
      rec.violations.push("the body is not JSON");
      return answer(wire.error(400, { message: "We could not parse the JSON body of your request." }));
    }
    const call = { body: rec.body, headers: req.headers, url };
    const asked = wire.describe(call);
    const streaming = wire.streaming(call);
    Object.assign(rec, {
      model: asked.model,
      schemaName: asked.schemaName,
      tools: asked.tools,
      stream: !!streaming,
    });

    const refusals = wire.check(call).filter((r) => opts.enforceRules !== false || !r.violation);
    if (refusals.length) {
      rec.violations.push(...refusals.filter((r) => r.violation).map((r) => r.message));
      const [first] = refusals;
      return answer(wire.error(first.status, first));
    }

    const lacking = wire.format === "openai-chat" ? localServerRefusal(emulations, rec.body) : undefined;
    if (lacking) {
      rec.rule = "local-server-refusal";
      return answer(lacking);
    }

    const picked = pick(asked);
    if (!picked) {
      return answer(
        wire.error(500, {
          message: `scripted-llm: no scripted reply for request: ${summarize(asked)}`,
          code: "no_scripted_reply",
        }),
      );
    }
    const { state } = picked;
    const reply = state.rule.replies[Math.min(state.next, state.rule.replies.length - 1)];
    state.next++;
    rec.rule = state.rule.name ?? `rule#${picked.index}`;

    const delayMs = (reply.delayMs ?? 0) + (opts.latencyMs ?? 0);
    if (delayMs && !(await wait(delayMs, res))) return;

    switch (reply.kind) {
      case "hang":
        return; // the close listener records the abort
      case "error": {
        const e = wire.error(reply.status);
        return answer({
          status: reply.status,
          body: reply.body ?? e.body,
          headers: reply.headers ?? e.headers,
        });
      }
      case "context_length":
        return answer(wire.contextLength());
    }

    const completion = toAnswer(reply as AnswerReply, asked, (i) => randomId(`call_${rec.id}_${i}_`, 4));
    const ctx = { model: asked.model || "scripted", requestId: rec.id, body: rec.body };
    if (!streaming) return answer({ status: 200, body: wire.respond(completion, ctx) });

    rec.status = 200;
    res.writeHead(200, {
      "content-type": streaming === "sse" ? "text/event-stream" : "application/json",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const frames = wire.stream(completion, ctx);
    if (streaming === "json-array") res.write("[");
    for (const [i, frame] of frames.entries()) {
      if (res.destroyed) return;
      if (streaming === "sse") res.write(frameText(frame));
      else if ("data" in frame) res.write(`${i ? ",\r\n" : ""}${JSON.stringify(frame.data)}`);
      // Yield between events so they really leave as separate writes.
      if (reply.chunkDelayMs) {
        if (!(await wait(reply.chunkDelayMs, res))) return;
      } else await new Promise((r) => setImmediate(r));
    }
    res.end(streaming === "json-array" ? "]" : undefined);
  }

  async function handleControl(req: http.IncomingMessage, res: http.ServerResponse, path: string) {
    const json = (status: number, body: unknown) => sendJson(res, { status, body });
    if (req.method === "GET" && path === "/__control/requests") return json(200, { requests });
    if (req.method === "POST" && path === "/__control/reset") {
      await readBody(req);
      api.reset();
      return json(200, { ok: true });
    }
    if (req.method === "POST" && path === "/__control/emulate") {
      try {
        api.emulate(emulateBodySchema.parse(JSON.parse(await readBody(req))).servers);
      } catch (err) {
        const message = err instanceof z.ZodError ? z.prettifyError(err) : "invalid JSON body";
        return json(400, { error: { code: "bad_request", message } });
      }
      return json(200, { ok: true });
    }
    if (req.method === "POST" && (path === "/__control/script" || path === "/__control/rules")) {
      let parsed: z.infer<typeof rulesBodySchema>;
      try {
        parsed = rulesBodySchema.parse(JSON.parse(await readBody(req)));
      } catch (err) {
        const message = err instanceof z.ZodError ? z.prettifyError(err) : "invalid JSON body";
        return json(400, { error: { code: "bad_request", message } });
      }
      const parsedRules = parsed.rules as ScriptRule[];
      if (path === "/__control/script") api.setScript(parsedRules);
      else api.addRules(parsedRules);
      return json(200, { ok: true, rules: rules.length });
    }
    return json(404, { error: { code: "not_found", message: `no control endpoint ${req.method} ${path}` } });
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname;
    const handle = async () => {
      if (path.startsWith("/__control/")) return handleControl(req, res, path);
      const wire = wireFor(req.method, path);
      if (wire) return handleModelCall(wire, req, res, url);
      if (req.method === "GET" && path === "/v1/models") {
        return sendJson(res, {
          status: 200,
          body: {
            object: "list",
            data: [{ id: "scripted-model", object: "model", created: 1700000000, owned_by: "scripted-llm" }],
          },
        });
      }
      return sendJson(
        res,
        openAiErrorFor(404, {
          message: `scripted-llm: unknown endpoint ${req.method} ${path}`,
          code: "not_found",
        }),
      );
    };
    handle().catch((err) => {
      if (!res.headersSent) sendJson(res, openAiErrorFor(500, { message: `scripted-llm: ${String(err)}` }));
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  const api: ScriptedLlm = {
    url: `${origin}/v1`,
    baseUrls: {
      openai: `${origin}/v1`,
      anthropic: `${origin}/v1`,
      google: `${origin}/v1beta`,
      "openai-compatible": `${origin}/v1`,
    },
    port,
    setScript(newRules) {
      rules = validateRules(newRules).map((rule) => ({ rule, next: 0 }));
    },
    addRules(newRules) {
      rules.push(...validateRules(newRules).map((rule) => ({ rule, next: 0 })));
    },
    emulate(servers) {
      emulations = z.array(emulationSchema).parse(servers);
    },
    reset() {
      rules = [];
      emulations = [];
      wires = makeWires();
      requests.length = 0; // in place, so callers holding `requests` see the reset
    },
    requests,
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      return new Promise((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections(); // hanging requests would otherwise keep close() waiting
      });
    },
  };
  return api;
}
