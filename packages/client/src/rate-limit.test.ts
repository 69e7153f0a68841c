import { type BareItem, type Item, parseList, serializeList, Token } from "structured-headers";
import { describe, expect, it } from "vitest";
import { parseRateLimit } from "./rate-limit.js";

const legacy = (limit: string, remaining: string, reset: string) =>
  new Headers({
    "X-RateLimit-Limit": limit,
    "X-RateLimit-Remaining": remaining,
    "X-RateLimit-Reset": reset,
  });
const headers = legacy;

describe("parseRateLimit", () => {
  it("reads the three headers into numbers and a Date", () => {
    expect(parseRateLimit(headers("1000", "0", "1767225660"))).toEqual({
      limit: 1000,
      remaining: 0,
      resetAt: new Date("2026-01-01T00:01:00Z"),
    });
  });

  it("is undefined when a header is missing or not a non-negative integer", () => {
    expect(parseRateLimit(new Headers())).toBeUndefined();
    expect(parseRateLimit(new Headers({ "X-RateLimit-Limit": "60" }))).toBeUndefined();
    expect(parseRateLimit(headers("60", "-1", "1767225660"))).toBeUndefined();
    expect(parseRateLimit(headers("60", "59", "soon"))).toBeUndefined();
    expect(parseRateLimit(headers("6e1", "59", "1767225660"))).toBeUndefined();
  });
});

const DATE = "Thu, 01 Jan 2026 00:00:43 GMT";
const AT_DATE = Date.UTC(2026, 0, 1, 0, 0, 43);

/** The IETF fields as the engine writes them, serialized by an RFC 9651 library. */
function ietf(
  members: Array<[string, { q: number; w: number; r: number; t: number }]>,
  extra: Record<string, string> = {},
): Headers {
  const item = (name: string, params: Array<[string, number]>): Item => [name, new Map(params)];
  return new Headers({
    date: DATE,
    "RateLimit-Policy": serializeList(
      members.map(([name, m]) =>
        item(name, [
          ["q", m.q],
          ["w", m.w],
        ]),
      ),
    ),
    RateLimit: serializeList(
      members.map(([name, m]) =>
        item(name, [
          ["r", m.r],
          ["t", m.t],
        ]),
      ),
    ),
    ...extra,
  });
}

describe("parseRateLimit with the IETF fields (draft-ietf-httpapi-ratelimit-headers-10)", () => {
  const minute = { q: 60, w: 60, r: 59, t: 17 };
  const day = { q: 1000, w: 86_400, r: 999, t: 86_357 };

  it("reads the window with the fewest left: q, r, and Date plus t", () => {
    expect(
      parseRateLimit(
        ietf([
          ["minute", minute],
          ["day", day],
        ]),
      ),
    ).toEqual({ limit: 60, remaining: 59, resetAt: new Date(AT_DATE + 17_000) });
    expect(
      parseRateLimit(
        ietf([
          ["minute", minute],
          ["day", { ...day, r: 3 }],
        ]),
      ),
    ).toEqual({ limit: 1000, remaining: 3, resetAt: new Date(AT_DATE + 86_357_000) });
  });

  it("on a tie takes the later reset (only then can a request go again)", () => {
    const both = ietf([
      ["minute", { ...minute, r: 0 }],
      ["day", { ...day, r: 0, t: 600 }],
    ]);
    expect(parseRateLimit(both)?.resetAt).toEqual(new Date(AT_DATE + 600_000));
  });

  it("prefers them to X-RateLimit-* on the same response", () => {
    const headers = ietf([["minute", { ...minute, r: 4 }]], {
      ...Object.fromEntries(legacy("60", "59", "1767225660")),
    });
    expect(parseRateLimit(headers)?.remaining).toBe(4);
  });

  it("counts t from the client's clock when the response has no Date", () => {
    const headers = ietf([["minute", minute]]);
    headers.delete("date");
    const before = Date.now();
    const resetAt = parseRateLimit(headers)?.resetAt.getTime() ?? 0;
    expect(resetAt).toBeGreaterThanOrEqual(before + 17_000);
    expect(resetAt).toBeLessThanOrEqual(Date.now() + 17_000);
  });

  it("reads any well-formed List: other parameters and members, escapes, split fields", () => {
    const policy = serializeList([
      [new Token("tok"), new Map([["q", 1]])],
      [
        'we"ird\\',
        new Map<string, BareItem>([
          ["q", 7],
          ["qu", "requests"],
          ["pk", new Uint8Array([1, 2])],
        ]),
      ],
    ]);
    const limits = serializeList([
      [
        'we"ird\\',
        new Map<string, BareItem>([
          ["r", 2],
          ["t", 9],
          ["pk", new Uint8Array([1, 2])],
          ["x", 1.5],
          ["y", true],
        ]),
      ],
    ]);
    // A List may be split over several fields (RFC 9651 section 4.2): Headers joins them.
    const headers = new Headers({ date: DATE });
    headers.append("RateLimit-Policy", policy);
    headers.append("RateLimit-Policy", '"other";q=5');
    headers.append("RateLimit", limits);
    expect(parseRateLimit(headers)).toEqual({
      limit: 7,
      remaining: 2,
      resetAt: new Date(AT_DATE + 9000),
    });
  });

  it.each([
    [
      "an Inner List (well-formed RFC 9651, but these fields are Lists of Items)",
      '("minute");r=1;t=2',
      false,
    ],
    ["a trailing comma", '"minute";r=1;t=2,', true],
    ["an integer of 16 digits", '"minute";r=1234567890123456;t=2', true],
    ["an unterminated String", '"minute;r=1;t=2', true],
    ["an upper-case key", '"minute";R=1;t=2', true],
    ["a space before a parameter", '"minute" ;r=1;t=2', true],
  ])(
    "ignores a malformed RateLimit (%s), falling back to X-RateLimit-*",
    (_what, field, offGrammar) => {
      // The library agrees where the field is off RFC 9651's grammar.
      if (offGrammar) expect(() => parseList(field)).toThrow();
      const headers = ietf([["minute", minute]], {
        RateLimit: field,
        ...Object.fromEntries(legacy("60", "41", "1767225660")),
      });
      expect(parseRateLimit(headers)?.remaining).toBe(41);
      headers.delete("X-RateLimit-Remaining");
      expect(parseRateLimit(headers)).toBeUndefined();
    },
  );

  it("ignores a member without r or t, or whose policy states no q", () => {
    const headers = new Headers({
      date: DATE,
      "RateLimit-Policy": '"a";q=10, "b";w=60, "c";q=10',
      RateLimit: '"a";r=1, "b";r=0;t=5, "c";r=3;t=-4, "d";r=0;t=1',
    });
    expect(parseRateLimit(headers)).toBeUndefined();
  });
});
