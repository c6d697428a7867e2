/**
 * What each wire format (OpenAI chat completions, OpenAI Responses, Anthropic Messages, Gemini)
 * supplies to the scripted server: how to read a request, which of the provider's documented
 * request rules it breaks, how the provider words its errors, and how it renders an answer, whole
 * or streamed.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Answer, WireRequest } from "./script.ts";

export type WireFormat = "openai-chat" | "openai-responses" | "anthropic" | "google";

// biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON
export type Body = any;

/** Why the provider would refuse the request, before any model sees it. */
export interface Refusal {
  status: number;
  message: string;
  /** The provider's code or parameter name for the problem, where its errors carry one. */
  code?: string;
  param?: string;
  /**
   * A broken documented request rule (a malformed request, a schema outside the provider's subset,
   * a missing auth header), as opposed to a refusal the request could not avoid (a wrong key).
   */
  violation: boolean;
}

export interface WireError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** One server-sent event (`event:` line optional), or a literal terminator line such as `[DONE]`. */
export type Frame = { event?: string; data: unknown } | { raw: string };

export interface RenderContext {
  model: string;
  /** The server's running number of the request, for ids that tell requests apart. */
  requestId: number;
  body: Body;
}

export interface IncomingCall {
  body: Body;
  headers: IncomingHttpHeaders;
  url: URL;
}

export interface Wire {
  format: WireFormat;
  /** Whether this call is streamed, and as what (Gemini streams a JSON array without `alt=sse`). */
  streaming(call: IncomingCall): false | "sse" | "json-array";
  describe(call: IncomingCall): WireRequest;
  /** The documented request rules this call breaks, first the ones the provider checks first. */
  check(call: IncomingCall): Refusal[];
  /** The provider's error for a status: its own wording for an injected status, or `detail`. */
  error(status: number, detail?: { message: string; code?: string; param?: string }): WireError;
  contextLength(): WireError;
  /** A finished answer as the provider's non-streamed response body. */
  respond(answer: Answer, ctx: RenderContext): unknown;
  /** The same answer as the provider's stream. */
  stream(answer: Answer, ctx: RenderContext): Frame[];
  /** Called after a successful answer, so stateful formats remember what they returned. */
  remember?(answer: Answer, rendered: unknown): void;
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Text of a content value that is a string or a list of parts carrying `text`. */
export function partsText(content: unknown, accept: (part: Body) => boolean = () => true): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((p) => p && typeof p === "object" && typeof p.text === "string" && accept(p))
    .map((p) => p.text as string)
    .join("");
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Tool and function names the providers accept: letters, digits, `_` and `-`, 1 to 64 characters. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
