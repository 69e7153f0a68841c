import { parse } from "node:querystring";
import express, { type Request } from "express";
import { describe, expect, it } from "vitest";
import { parseQuery, splitPlainQuery } from "./validate.js";

/** Every string of `alphabet` up to `max` characters (the fast path's whole input space, small). */
function all(alphabet: string, max: number): string[] {
  let level = [""];
  const out = [""];
  for (let n = 1; n <= max; n++) {
    level = level.flatMap((shorter) => [...alphabet].map((c) => shorter + c));
    out.push(...level);
  }
  return out;
}

/** The names `value` inherits: every key of every object on its prototype chain. */
function inherited(value: unknown): PropertyKey[] {
  const names: PropertyKey[] = [];
  for (let at = Object.getPrototypeOf(value); at !== null; at = Object.getPrototypeOf(at)) {
    names.push(...Reflect.ownKeys(at));
  }
  return names;
}

describe("the plain query split", () => {
  it("builds what querystring.parse builds, for every string of a, b, =, & up to 7 characters", () => {
    const inputs = all("ab=&", 7);
    expect(inputs.length).toBeGreaterThan(20_000);
    for (const text of inputs) {
      const split = splitPlainQuery(text);
      expect(split, text).toEqual(parse(text));
      expect(inherited(split), text).toEqual([]);
    }
  });

  it("inherits nothing, as querystring.parse's null-prototype object", () => {
    const split = splitPlainQuery("a=1") as object;
    // One empty, prototype-less object behind it (it keeps V8's fast properties; see Query).
    const behind = Object.getPrototypeOf(split) as object;
    expect(Object.getPrototypeOf(behind)).toBe(null);
    expect(Reflect.ownKeys(behind)).toEqual([]);
    expect("toString" in split || "hasOwnProperty" in split || "constructor" in split).toBe(false);
    expect(inherited(parse("a=1"))).toEqual([]);
  });

  it("keeps a repeated name as an array in order, and names that are Object.prototype's own", () => {
    const text = "a=1&__proto__=x&a=2&constructor&a=3&toString=";
    expect(splitPlainQuery(text)).toEqual(parse(text));
    expect(splitPlainQuery(text)?.a).toEqual(["1", "2", "3"]);
    // An own property, not the prototype setter.
    expect(Object.hasOwn(splitPlainQuery(text) as object, "__proto__")).toBe(true);
    expect(splitPlainQuery(text)?.constructor).toBe("");
  });

  it("declines past querystring.parse's 1000 pairs, so the getter applies its limit", () => {
    expect(splitPlainQuery(Array.from({ length: 1000 }, (_, i) => `k${i}=1`).join("&"))).toEqual(
      parse(Array.from({ length: 1000 }, (_, i) => `k${i}=1`).join("&")),
    );
    expect(splitPlainQuery(Array.from({ length: 1001 }, () => "k=1").join("&"))).toBeUndefined();
  });
});

describe("parseQuery, the app's query parser", () => {
  /** `req.query` of an app whose query parser is `parser` (Express's default without one). */
  const queryOf = (url: string, parser?: typeof parseQuery) => {
    const app = express();
    if (parser) app.set("query parser", parser);
    const req = Object.create(app.request) as Request;
    Object.assign(req, { url, app, headers: {} });
    return req.query;
  };

  it("gives what Express's default parser gives, split or not", () => {
    for (const url of [
      "/items",
      "/items?",
      "/items?size=20",
      "/items?size=20&kind=x&size=3",
      "/items?a=%41&b=c+d",
      "/items?a=1#frag",
      "/items?a= 1",
      "/items?a[b]=1",
      `/items?${Array.from({ length: 1001 }, () => "k=1").join("&")}`,
    ]) {
      const ours = queryOf(url, parseQuery);
      expect(ours, url).toEqual(queryOf(url));
      // Nothing inherited, as querystring.parse's object.
      expect("toString" in ours || "constructor" in ours, url).toBe(false);
    }
  });
});
