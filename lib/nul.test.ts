import { describe, expect, it } from "vitest";
import { stripNul, stripNulDeep } from "./nul.ts";

const NUL = "\u0000";

describe("stripNul", () => {
  it("drops every U+0000 and nothing else", () => {
    expect(stripNul(`${NUL}a${NUL}${NUL}b\u0001c${NUL}`)).toBe("ab\u0001c");
    expect(stripNul("plain")).toBe("plain");
  });
});

describe("stripNulDeep", () => {
  it("cleans every string of a parsed value, keys included, and keeps the rest as it is", () => {
    const parsed = JSON.parse(
      '{"q\\u0000":"a\\u0000b","n":3,"ok":true,"none":null,"list":["x\\u0000",{"deep":"y\\u0000z"}]}',
    );
    expect(stripNulDeep(parsed)).toEqual({
      q: "ab",
      n: 3,
      ok: true,
      none: null,
      list: ["x", { deep: "yz" }],
    });
  });

  it("keeps a __proto__ key an own property, as JSON.parse made it", () => {
    const cleaned = stripNulDeep(JSON.parse('{"__proto__":{"polluted":"yes\\u0000"}}')) as object;
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(cleaned)).toEqual(["__proto__"]);
  });
});
