import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import de from "../../messages/de.json";
import en from "../../messages/en.json";
import zh from "../../messages/zh.json";
import {
  ExtractionError,
  extractionFailures,
  FetchRefusedError,
  fetchRefusalReasons,
} from "../fetch/errors.ts";
import { becauseCodes } from "./because.ts";
import { fetchFailureBecause, NoTextError } from "./fetch-because.ts";

const catalogues = { en, de, zh } as const;

/** The words of a reason in a locale, failing on a missing message or a value its words need. */
function say(locale: keyof typeof catalogues, why: { code: string; values?: object }): string {
  const errors: string[] = [];
  const t = createTranslator({
    locale,
    messages: catalogues[locale] as typeof en,
    onError: (e) => errors.push(e.message),
  }) as unknown as (key: string, values?: object) => string;
  const text = t(`because.${why.code}`, why.values);
  expect(errors).toEqual([]);
  return text;
}

/** A refusal as lib/fetch raises it, with every detail its kind carries. */
function refusal(reason: (typeof fetchRefusalReasons)[number]): FetchRefusedError {
  const url = "http://10.0.0.7:8080/page";
  const details = {
    too_many_redirects: { limit: 5 },
    too_large: { limit: 5_242_880 },
    timeout: { limit: 15_000 },
    content_type: { contentType: "image/png" },
    http_error: { status: 404 },
    network: { detail: "connect ECONNREFUSED 10.0.0.7:8080" },
  } as Record<string, object>;
  return new FetchRefusedError(reason, url, `English words for ${reason}`, details[reason]);
}

const extraction = (reason: (typeof extractionFailures)[number]) =>
  new ExtractionError(
    "https://a.example/x.pdf",
    `English words for ${reason}`,
    undefined,
    reason,
    {
      too_many_pages: { pages: 600, limit: 200 },
      timeout: { limit: 30_000 },
      unreadable: { detail: "Invalid PDF structure." },
      too_large: {},
    }[reason],
  );

describe("fetchFailureBecause", () => {
  it.each(fetchRefusalReasons)("says lib/fetch's %s by a code with words in every locale", (reason) => {
    const why = fetchFailureBecause(refusal(reason));
    expect(why.code).not.toBe("fetch_failed");
    expect(becauseCodes).toContain(why.code);
    for (const locale of ["en", "de", "zh"] as const) expect(say(locale, why)).not.toMatch(/English/);
  });

  it.each(extractionFailures)("says an extraction's %s by a code with words in every locale", (reason) => {
    const why = fetchFailureBecause(extraction(reason));
    expect(why.code).not.toBe("fetch_failed");
    expect(becauseCodes).toContain(why.code);
    for (const locale of ["en", "de", "zh"] as const) expect(say(locale, why)).not.toMatch(/English/);
  });

  it("carries the numbers and the host as values, the network's words as said", () => {
    expect(fetchFailureBecause(refusal("http_error"))).toEqual({
      code: "fetch_http_error",
      values: { status: 404 },
    });
    expect(fetchFailureBecause(refusal("timeout")).values).toEqual({ seconds: 15 });
    expect(fetchFailureBecause(refusal("too_large")).values).toEqual({ bytes: 5_242_880 });
    expect(fetchFailureBecause(refusal("private_address")).values).toEqual({ host: "10.0.0.7" });
    expect(fetchFailureBecause(refusal("network")).values).toEqual({
      said: "connect ECONNREFUSED 10.0.0.7:8080",
    });
    expect(fetchFailureBecause(extraction("too_many_pages")).values).toEqual({ pages: 600, max: 200 });
    expect(say("de", fetchFailureBecause(extraction("too_many_pages")))).toBe(
      "das PDF hat 600 Seiten; gelesen werden höchstens 200",
    );
  });

  it("says the engine's own refusal of a page without text by its code", () => {
    expect(fetchFailureBecause(new NoTextError())).toEqual({ code: "fetch_no_text" });
  });

  it("says a missing content type apart from a refused one", () => {
    const none = new FetchRefusedError("content_type", "https://a.example/", "x", { contentType: "" });
    expect(say("en", fetchFailureBecause(none))).toBe("the server did not say what kind of document this is");
    expect(say("zh", fetchFailureBecause(refusal("content_type")))).toBe("不读取 image/png 类型的文档");
  });

  it("keeps the English words as said for a refusal without its numbers or an error of another kind", () => {
    const bare = new FetchRefusedError("http_error", "https://a.example/", "HTTP 500");
    expect(fetchFailureBecause(bare)).toEqual({ code: "fetch_failed", values: { said: "HTTP 500" } });
    expect(fetchFailureBecause(new Error("socket hang up"))).toEqual({
      code: "fetch_failed",
      values: { said: "socket hang up" },
    });
  });
});
