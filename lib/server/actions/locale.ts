"use server";
/**
 * The language switcher's form (components/locale-switcher.tsx). A plain form post, so it works
 * before the page's JavaScript has loaded; it answers with a redirect back to the page it was on.
 */
import { redirect } from "next/navigation";
import { chooseLocale, chooseLocaleSchema } from "../i18n/locale.ts";
import { formFields } from "./action-state.ts";

export async function chooseLocaleAction(form: FormData): Promise<void> {
  const input = chooseLocaleSchema.safeParse(formFields(form));
  // A hand-made post with a language the app does not have changes nothing.
  redirect(input.success ? await chooseLocale(input.data) : "/");
}
