/**
 * A server type as the browser receives it over JSON: a Date arrives as its ISO string, everything
 * else keeps its shape. Lets client components import the server's types instead of re-declaring them.
 */
export type Jsonified<T> = T extends Date
  ? string
  : T extends readonly (infer Item)[]
    ? Jsonified<Item>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;
