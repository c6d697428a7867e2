"use server";
/**
 * The library page's add form: an uploaded file, pasted text or a URL. The form's fields become
 * the request POST /api/library receives (multipart for a file, JSON otherwise) and go through the
 * same ingest function, so sizes, types, the SSRF guard and the "uploads" rate limit are the
 * route's own.
 */
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { addDocumentFromRequest } from "../library/add.ts";
import { serverRuntime } from "../runtime.ts";
import { actionCaller } from "./action-caller.ts";
import { type ActionState, okState, parseForm, runAction } from "./action-state.ts";

const fieldsSchema = z.object({
  mode: z.enum(["file", "text", "url"]),
  title: z.string().optional(),
  text: z.string().optional(),
  format: z.enum(["text", "markdown", "html"]).optional(),
  url: z.string().optional(),
});

/** The route's request for these fields; the URL is never fetched, only read by the ingest. */
function ingestRequest(form: FormData, fields: z.output<typeof fieldsSchema>): Request {
  const target = "http://server-action.invalid/api/library";
  const title = fields.title?.trim() || undefined;
  if (fields.mode === "file") {
    const file = form.get("file");
    if (!(file instanceof Blob) || file.size === 0) {
      throw new AppError("validation_failed", "Choose a file to upload (or drop one on the box).");
    }
    const body = new FormData();
    body.append("file", file);
    if (title) body.append("title", title);
    return new Request(target, { method: "POST", body });
  }
  const json =
    fields.mode === "text"
      ? { text: fields.text ?? "", format: fields.format ?? "text", title }
      : { url: fields.url?.trim() ?? "", title };
  return new Request(target, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(json),
  });
}

export async function addDocumentAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    // Counted on arrival, as the route does: reading and parsing the document is the work limited.
    const caller = await actionCaller("uploads");
    const fields = parseForm(fieldsSchema, form);
    const stored = await addDocumentFromRequest(
      await serverRuntime(),
      caller.userId,
      ingestRequest(form, fields),
    );
    const chars = new Intl.NumberFormat("en").format(stored.chars);
    return okState(`Added “${stored.title}” (${chars} characters).`, {
      mode: fields.mode,
      document: JSON.parse(JSON.stringify(stored)),
    });
  });
}
