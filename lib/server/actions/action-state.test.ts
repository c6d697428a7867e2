import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { formFields, parseForm, runAction } from "./action-state.ts";

describe("server action state", () => {
  it("reads repeated fields as arrays and drops Next.js's own fields and files", () => {
    const form = new FormData();
    form.append("topic", "a");
    form.append("drop", "1");
    form.append("drop", "2");
    form.append("$ACTION_ID_abc", "");
    form.append("file", new Blob(["x"]), "x.txt");
    expect(formFields(form)).toEqual({ topic: "a", drop: ["1", "2"] });
  });

  it("drops U+0000 from form fields, as from every request body", () => {
    const form = new FormData();
    form.append("question", "Heat\u0000 pumps?");
    form.append("tags\u0000", "a\u0000");
    expect(formFields(form)).toEqual({ question: "Heat pumps?", tags: "a" });
    expect(parseForm(z.object({ q: z.string() }), { q: "x\u0000y" })).toEqual({ q: "xy" });
  });

  it("answers a database refusal of NUL as the caller's mistake, not a server error", async () => {
    const refusal = new Error("Failed query", {
      cause: Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" }),
    });
    const state = await runAction(async () => {
      throw refusal;
    });
    expect(state).toMatchObject({ status: "error", code: "bad_request" });
  });

  it("turns an AppError into the error state with its code", async () => {
    const state = await runAction(async () => {
      throw new AppError("conflict", "The run is writing its report.");
    });
    expect(state).toEqual({ status: "error", code: "conflict", message: "The run is writing its report." });
  });

  it("turns a validation failure into field errors naming the field", async () => {
    const schema = z.object({ topic: z.string().min(3, "Too short") });
    const state = await runAction(async () => {
      parseForm(schema, { topic: "x" });
      return { status: "idle" };
    });
    expect(state.status).toBe("error");
    if (state.status !== "error") return;
    expect(state.code).toBe("validation_failed");
    expect(state.fieldErrors).toEqual({ topic: ["Too short"] });
    expect(state.message).toContain("topic: Too short");
  });

  it("hides an unexpected error's text behind a generic message", async () => {
    const state = await runAction(async () => {
      throw new Error("connection string postgres://secret");
    });
    expect(state.status === "error" && state.message).not.toContain("secret");
  });
});
