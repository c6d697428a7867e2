/**
 * The app's English words for a test that computes what the page should say (an event's line, a
 * role's label): next-intl's translator over messages/en.json, as the page builds it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { createTranslator } from "next-intl";
import type en from "../../messages/en.json";

const messages = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "..", "..", "messages", "en.json"), "utf8"),
) as typeof en;

export const english = createTranslator({ locale: "en", messages });
