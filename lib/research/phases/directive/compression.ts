/**
 * Compression: one researcher's full history (task, reasoning, tool calls, results, reflections)
 * rendered as a transcript and condensed by the compression role into findings with numbered
 * citations. The transcript is fitted to a character budget by dropping the oldest messages first —
 * never the task, the last two reflections or the last search — and shrunk further on each
 * context-window error. When no compression can be had, the raw notes are returned instead.
 */
import type { ModelMessage } from "ai";
import { detectContextWindowError } from "../../../ai/context-errors.ts";
import type { EngineDeps } from "../../deps.ts";
import { rethrowIfFatal } from "../../errors.ts";
import type { StoredEvent } from "../../events.ts";
import {
  compressionInstructions,
  compressionPrompt,
  formatSourceList,
  type NumberedSource,
  rawNotesHeader,
} from "../../prompts/compression.ts";
import type { DirectiveRecord, SourceRecord } from "../../store.ts";

export interface CompressionResult {
  findings: string;
  /** True when these are the raw notes because compression failed. */
  fallback: boolean;
  /** Messages left out of the transcript the (last) compression call received. */
  droppedMessages: number;
}

/** Context-window retries after the first attempt. */
export const MAX_COMPRESSION_RETRIES = 3;
/** An entry is never clipped below this, so what is kept stays readable. */
const MIN_CLIPPED_CHARS = 400;
const MIN_BUDGET_CHARS = 1_000;

export interface TranscriptEntry {
  /** Index of the message it renders. */
  index: number;
  text: string;
}

type ToolCallInfo = { toolName: string; input: unknown };

function field(input: unknown, key: string): string {
  const v = (input as Record<string, unknown> | null | undefined)?.[key];
  return typeof v === "string" ? v : JSON.stringify(v ?? "");
}

function describeCall(call: ToolCallInfo): string {
  switch (call.toolName) {
    case "web_search":
      return `Search: "${field(call.input, "query")}"`;
    case "extract_content":
      return `Read page: ${field(call.input, "url")}`;
    case "think":
      return `Reflection: ${field(call.input, "reflection")}`;
    case "research_complete":
      return `Marked complete: ${field(call.input, "summary")}`;
    default:
      return `Tool call ${call.toolName}: ${JSON.stringify(call.input)}`;
  }
}

function outputText(output: unknown): string {
  const o = output as { type?: string; value?: unknown; reason?: string } | undefined;
  if (!o) return "";
  if (o.type === "text" || o.type === "error-text") return String(o.value ?? "");
  if (o.type === "execution-denied") return `Not carried out${o.reason ? `: ${o.reason}` : ""}`;
  if (o.type === "content" && Array.isArray(o.value)) {
    return o.value
      .map((p: { type?: string; text?: string }) => (p.type === "text" ? (p.text ?? "") : ""))
      .join("\n");
  }
  return JSON.stringify(o.value ?? o);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((p: { type?: string; text?: string }) => (p.type === "text" ? (p.text ?? "") : ""))
    .join("\n");
}

/** Tool calls by id, so a result can be labelled with the query or URL it answers. */
function callsById(messages: readonly ModelMessage[]): Map<string, ToolCallInfo> {
  const calls = new Map<string, ToolCallInfo>();
  for (const m of messages) {
    if (m.role !== "assistant" || typeof m.content === "string") continue;
    for (const p of m.content) if (p.type === "tool-call") calls.set(p.toolCallId, p);
  }
  return calls;
}

/** One plain-text entry per message that says something (think acknowledgements say nothing). */
export function renderHistory(messages: readonly ModelMessage[]): TranscriptEntry[] {
  const calls = callsById(messages);
  const entries: TranscriptEntry[] = [];
  messages.forEach((m, index) => {
    const lines: string[] = [];
    if (m.role === "system") lines.push(`System: ${m.content}`);
    else if (m.role === "user")
      lines.push(`${index === 0 ? "Task" : "Note to the researcher"}: ${textOf(m.content)}`);
    else if (m.role === "assistant") {
      if (typeof m.content === "string") {
        if (m.content.trim()) lines.push(`Researcher: ${m.content.trim()}`);
      } else {
        for (const p of m.content) {
          if (p.type === "text" && p.text.trim()) lines.push(`Researcher: ${p.text.trim()}`);
          else if (p.type === "reasoning" && p.text.trim())
            lines.push(`Researcher's reasoning: ${p.text.trim()}`);
          else if (p.type === "tool-call") lines.push(describeCall(p));
        }
      }
    } else if (m.role === "tool") {
      for (const p of m.content) {
        if (p.type !== "tool-result") continue;
        const call = calls.get(p.toolCallId);
        const name = call?.toolName ?? p.toolName;
        if (name === "think" || name === "research_complete") continue;
        const label =
          name === "web_search"
            ? `Results of search "${field(call?.input, "query")}"`
            : name === "extract_content"
              ? `Content of ${field(call?.input, "url")}`
              : `Result of ${name}`;
        lines.push(`${label}:\n${outputText(p.output)}`);
      }
    }
    const text = lines.join("\n").trim();
    if (text) entries.push({ index, text });
  });
  return entries;
}

/** Messages that survive any truncation: the task, the last two reflections, the last search and its results. */
export function protectedMessages(messages: readonly ModelMessage[]): Set<number> {
  const keep = new Set<number>();
  messages.forEach((m, i) => {
    if (m.role === "system") keep.add(i);
  });
  const firstUser = messages.findIndex((m) => m.role === "user");
  if (firstUser >= 0) keep.add(firstUser);
  let thoughts = 0;
  let lastSearch: string | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant" || typeof m.content === "string") continue;
    for (const p of [...m.content].reverse()) {
      if (p.type !== "tool-call") continue;
      if (p.toolName === "think" && thoughts < 2) {
        thoughts++;
        keep.add(i);
      } else if (p.toolName === "web_search" && lastSearch === undefined) {
        lastSearch = p.toolCallId;
        keep.add(i);
      }
    }
  }
  if (lastSearch !== undefined) {
    messages.forEach((m, i) => {
      if (
        m.role === "tool" &&
        m.content.some((p) => p.type === "tool-result" && p.toolCallId === lastSearch)
      ) {
        keep.add(i);
      }
    });
  }
  return keep;
}

const SEPARATOR = "\n\n";
const CLIP_MARK = "\n[… clipped to fit the budget …]";

/**
 * The transcript within `budget` characters: oldest unprotected entries dropped first (each gap
 * marked), then, if the protected ones alone are too long, the longest entries clipped.
 */
export function fitTranscript(
  entries: readonly TranscriptEntry[],
  keep: ReadonlySet<number>,
  budget: number,
): { text: string; dropped: number; chars: number } {
  const kept = entries.map((e) => ({ ...e, dropped: false }));
  const render = () => {
    const parts: string[] = [];
    let gap = 0;
    for (const e of kept) {
      if (e.dropped) {
        gap++;
        continue;
      }
      if (gap > 0)
        parts.push(`[… ${gap} earlier message${gap === 1 ? "" : "s"} omitted to fit the budget …]`);
      gap = 0;
      parts.push(e.text);
    }
    return parts.join(SEPARATOR);
  };
  let text = render();
  let dropped = 0;
  for (const e of kept) {
    if (text.length <= budget) break;
    if (keep.has(e.index)) continue;
    e.dropped = true;
    dropped++;
    text = render();
  }
  for (let guard = 0; text.length > budget && guard < kept.length * 4; guard++) {
    const longest = kept
      .filter((e) => !e.dropped && e.text.length > MIN_CLIPPED_CHARS + CLIP_MARK.length)
      .sort((a, b) => b.text.length - a.text.length)[0];
    if (!longest) break;
    const target = Math.max(
      MIN_CLIPPED_CHARS,
      longest.text.length - (text.length - budget) - CLIP_MARK.length,
    );
    longest.text = `${longest.text.slice(0, target).trimEnd()}${CLIP_MARK}`;
    text = render();
  }
  return { text, dropped, chars: text.length };
}

/** The next, smaller budget after an overflow: by the provider's stated ratio when it gave one. */
export function shrinkBudget(currentChars: number, error: unknown): number {
  const d = detectContextWindowError(error);
  let ratio = 0.5;
  if (d?.limitTokens && d.requestedTokens && d.requestedTokens > d.limitTokens) {
    ratio = Math.min(0.7, (d.limitTokens / d.requestedTokens) * 0.8);
  }
  return Math.max(MIN_BUDGET_CHARS, Math.floor(currentChars * ratio));
}

/** The findings plus the list of the sources they cite, so the numbers mean the same everywhere. */
function withCitedSources(body: string, sources: readonly NumberedSource[]): string {
  const cited = new Set([...body.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
  const list = sources.filter((s) => cited.has(s.number));
  if (list.length === 0) return body;
  return `${body}\n\n### Sources\n${formatSourceList(list)}`;
}

export function renderRawNotes(
  directive: Pick<DirectiveRecord, "topic">,
  transcript: string,
  sources: readonly NumberedSource[],
): string {
  return [rawNotesHeader(directive.topic), transcript, `### Sources\n${formatSourceList(sources)}`].join(
    SEPARATOR,
  );
}

export async function compressFindings(
  deps: EngineDeps,
  directive: DirectiveRecord,
  messages: readonly ModelMessage[],
  sources: readonly SourceRecord[],
  /** When given, `compression.completed` goes here, for the caller to emit with its own events. */
  later?: StoredEvent[],
): Promise<CompressionResult> {
  const { signal, events } = deps;
  const completed = async (e: Extract<StoredEvent, { type: "compression.completed" }>) => {
    if (later) later.push(e);
    else await events.emit(e);
  };
  const numbered: NumberedSource[] = sources.map((s, i) => ({ number: i + 1, title: s.title, url: s.url }));
  const entries = renderHistory(messages);
  const keep = protectedMessages(messages);
  let fit = fitTranscript(entries, keep, deps.config.compressionBudgetChars);

  for (let attempt = 0; ; attempt++) {
    try {
      const r = await deps.models.text("compression", {
        instructions: compressionInstructions(deps.config.reportLanguage),
        prompt: compressionPrompt({ directive, sources: numbered, transcript: fit.text }),
        abortSignal: signal,
      });
      const body = r.text.trim();
      if (!body) break;
      const findings = withCitedSources(body, numbered);
      await completed({
        type: "compression.completed",
        directiveId: directive.id,
        fallback: false,
        chars: findings.length,
      });
      return { findings, fallback: false, droppedMessages: fit.dropped };
    } catch (e) {
      rethrowIfFatal(e, signal);
      // Only an overflow is helped by a shorter transcript; other failures go to the raw notes.
      if (!detectContextWindowError(e) || attempt >= MAX_COMPRESSION_RETRIES) break;
      fit = fitTranscript(entries, keep, shrinkBudget(fit.chars, e));
      await events.emit({
        type: "compression.retry",
        directiveId: directive.id,
        attempt: attempt + 1,
        droppedMessages: fit.dropped,
      });
    }
  }

  const notes = fitTranscript(entries, keep, deps.config.compressionBudgetChars);
  const findings = renderRawNotes(directive, notes.text, numbered);
  await completed({
    type: "compression.completed",
    directiveId: directive.id,
    fallback: true,
    chars: findings.length,
  });
  return { findings, fallback: true, droppedMessages: notes.dropped };
}
